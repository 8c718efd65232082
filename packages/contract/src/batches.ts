import { z } from 'zod';
import { captureResultSchema } from './capture.ts';
import { idSchema, timestampSchema } from './ids.ts';
import { JOB_STATUSES, WEBHOOK_STATUSES } from './jobs.ts';
import { WEBHOOK_VERIFICATION_SUMMARY } from './webhooks.ts';

/**
 * Limits of `POST /v1/batch` (issue 39, docs/batches.md): items per batch, looks per batch, and
 * renders (items x looks) per batch.
 */
export const BATCH_LIMITS = { items: 100, looks: 10, renders: 300 } as const;

/** A look's name: how results and `vitrine.yml` refer to it. */
export const LOOK_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** `Idempotency-Key` header: printable ASCII, 1-255 characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const fieldsObject = (description: string) =>
  z.record(z.string(), z.unknown()).meta({ description, additionalProperties: true });

export const batchRequestSchema = z
  .strictObject({
    items: z
      .array(
        fieldsObject(
          'One capture: the fields of a `POST /v1/capture` body (CaptureRequest), laid over `defaults`. A string is short for `{"url": ...}`.',
        ).or(z.string().min(1).max(2048)),
      )
      .min(1)
      .max(BATCH_LIMITS.items),
    defaults: fieldsObject(
      'CaptureRequest fields every item starts from (an item overrides them)',
    ).optional(),
    looks: z
      .record(
        z
          .string()
          .regex(
            LOOK_NAME_PATTERN,
            'A look name is 1-40 of a-z, 0-9, _ and -, starting with a letter or digit',
          ),
        fieldsObject('Styling fields (CaptureRequest) laid over each item for this look'),
      )
      .optional()
      .meta({
        description: `Named looks, each applied to every item: a page is loaded once and composed once per look. At most ${BATCH_LIMITS.looks}; items x looks at most ${BATCH_LIMITS.renders}.`,
      }),
    webhook_url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({
        description: `Receives one event when the whole batch has ended. ${WEBHOOK_VERIFICATION_SUMMARY}`,
      }),
  })
  .meta({
    id: 'BatchRequest',
    description: `Up to ${BATCH_LIMITS.items} captures in one call (docs/batches.md). Every item is checked before anything is queued or charged: a bad one is a 400 naming \`items[i].field\`. An item's own \`webhook_url\` receives that item's job event. Send an \`Idempotency-Key\` header to make a retried POST return the same batch.`,
    examples: [
      {
        defaults: { viewport: { width: 1280, height: 800 } },
        items: ['https://example.com', { url: 'https://example.com/pricing', full_page: true }],
        looks: {
          light: { background_preset: 'sunset' },
          dark: { dark_mode: true, background_preset: 'midnight' },
        },
      },
    ],
  });
export type BatchRequest = z.infer<typeof batchRequestSchema>;

export const BATCH_STATUSES = ['running', 'completed'] as const;

export const batchCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});
export type BatchCounts = z.infer<typeof batchCountsSchema>;

/** One render of a batch: an item under one look (or under none). */
export const batchRenderSchema = z.object({
  index: z.number().int().meta({ description: "The item's position in `items` (0-based)" }),
  look: z.string().nullable().meta({ description: 'The look, or null for a batch without looks' }),
  url: z.string().meta({ description: 'The page (or `html:` for an html document)' }),
  job_id: idSchema('job'),
  status: z.enum(JOB_STATUSES),
  result: captureResultSchema.nullable(),
  error: z.string().nullable(),
});
export type BatchRender = z.infer<typeof batchRenderSchema>;

/** GET /v1/batches/{id}, and the answer to POST /v1/batch. */
export const batchSchema = z
  .object({
    id: idSchema('batch'),
    status: z.enum(BATCH_STATUSES),
    counts: batchCountsSchema,
    credits_reserved: z
      .number()
      .int()
      .meta({ description: 'Reserved at POST for every render; a failed render is refunded' }),
    looks: z.array(z.string()),
    renders: z.array(batchRenderSchema).meta({ description: 'Item by item, each item look by look' }),
    webhook_url: z.string().nullable(),
    webhook_status: z.enum(WEBHOOK_STATUSES).nullable(),
    created_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
  })
  .meta({ id: 'Batch' });
export type Batch = z.infer<typeof batchSchema>;

/** Headers POST /v1/batch reads. */
export const batchHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, 'Must be 1-255 printable ASCII characters')
    .optional()
    .meta({
      description:
        'A retried POST with the same key (within the account) returns the same batch instead of starting another; the same key with a different body is a 409.',
    }),
});

export const batchParamsSchema = z.object({ id: idSchema('batch') });

/** The JSON body POSTed to a batch's `webhook_url` when its last render has ended. */
export const batchWebhookPayloadSchema = z
  .object({
    batch_id: idSchema('batch'),
    status: z.literal('completed'),
    counts: batchCountsSchema,
  })
  .meta({ id: 'BatchWebhookPayload' });
export type BatchWebhookPayload = z.infer<typeof batchWebhookPayloadSchema>;
