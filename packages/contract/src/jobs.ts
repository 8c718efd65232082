import { z } from 'zod';
import { captureResultSchema } from './capture.ts';
import { idSchema, timestampSchema } from './ids.ts';

export const JOB_STATUSES = ['pending', 'completed', 'failed'] as const;
export const WEBHOOK_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** 202 answer to a capture with `async: true` (docs/api-decisions.md section 5). */
export const jobAcceptedSchema = z
  .object({ job_id: idSchema('job'), status: z.literal('pending') })
  .meta({ id: 'JobAccepted' });
export type JobAccepted = z.infer<typeof jobAcceptedSchema>;

/** GET /v1/jobs/{id} **(ext)**: the job, with the full capture result once completed. */
export const jobSchema = z
  .object({
    id: idSchema('job'),
    status: z.enum(JOB_STATUSES),
    result: captureResultSchema.nullable(),
    error: z.string().nullable(),
    webhook_url: z.string().nullable(),
    webhook_status: z.enum(WEBHOOK_STATUSES).nullable(),
    created_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof jobSchema>;

export const jobParamsSchema = z.object({ id: idSchema('job') });

/** The JSON body POSTed to a job's `webhook_url`, signed per Standard Webhooks. */
export const webhookPayloadSchema = z
  .discriminatedUnion('status', [
    z.object({ job_id: idSchema('job'), status: z.literal('completed'), result: captureResultSchema }),
    z.object({ job_id: idSchema('job'), status: z.literal('failed'), error: z.string() }),
  ])
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
