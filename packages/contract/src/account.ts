import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.ts';
import { SCOPES } from './scopes.ts';
import { BLANK_TEXT_MESSAGE } from './text-fields.ts';

/** Who made a key: an operator, the device login, the account page or `POST /v1/keys`. */
export const KEY_ORIGINS = ['admin', 'device_login', 'web', 'api'] as const;
export type KeyOrigin = (typeof KEY_ORIGINS)[number];

export const KEY_LABEL_MAX = 100;

/** An API key as listings show it **(ext)**: never the key itself. */
export const apiKeySchema = z
  .object({
    id: idSchema('apiKey'),
    prefix: z.string().meta({ description: 'The first characters of the key, e.g. `vt_live_a1B2c3…`' }),
    label: z.string(),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(SCOPES)).meta({ description: 'Empty means full access' }),
    created_by: z.enum(KEY_ORIGINS),
    created_at: timestampSchema,
    last_used_at: timestampSchema.nullable(),
    revoked_at: timestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const keyListResponseSchema = z.object({ keys: z.array(apiKeySchema) });

export const keyLabelSchema = z
  .string()
  .trim()
  .min(1, BLANK_TEXT_MESSAGE)
  .max(KEY_LABEL_MAX)
  .regex(/^[\p{L}\p{N}\p{P}\p{S}\p{Zs}]+$/u, 'Must be printable text');

/** POST /v1/keys **(ext)**: a live key with at most the caller's own scopes. */
export const createKeyBodySchema = z
  .strictObject({
    label: keyLabelSchema.optional().meta({ description: 'Default "API key"' }),
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length)
      .optional()
      .meta({ description: "Omitted or empty: full access (only when the caller's key has it)" }),
  })
  .meta({ id: 'CreateKeyRequest' });
export type CreateKeyBody = z.infer<typeof createKeyBodySchema>;

export const createKeyResponseSchema = z.object({
  key: apiKeySchema,
  api_key: z.string().meta({ description: 'The key itself, shown once' }),
});

export const keyIdParamsSchema = z.strictObject({ id: idSchema('apiKey') });
export const keyResponseSchema = z.object({ key: apiKeySchema });

/** GET /v1/account **(ext)**: the caller's account and key, for `vitrine status`. */
export const accountResponseSchema = z
  .object({
    user: z.object({ id: idSchema('user'), email: z.string(), created_at: timestampSchema }),
    key: apiKeySchema,
    credits_remaining: z.number().int(),
    credits_monthly: z.number().int(),
  })
  .meta({ id: 'Account' });
export type AccountResponse = z.infer<typeof accountResponseSchema>;
