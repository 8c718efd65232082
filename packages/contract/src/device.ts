import { z } from 'zod';
import { idSchema } from './ids.ts';
import { SCOPES } from './scopes.ts';

/**
 * Device login (interface.md 4.3, 4.4, 3.1; docs/api-decisions.md section 6): a command-line client asks
 * for a code, the user approves it on the `/device` web page, and the client's poll returns an
 * API key once.
 */

/** The letters of a user code: no vowels (no words), no look-alikes such as 0/O or 1/I. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
/** Longest text accepted in the code field before it is even normalised. */
export const USER_CODE_MAX_INPUT = 64;

export const DEVICE_CODE_LIFETIME_SECONDS = 900;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** Added to a code's interval each time it is polled too soon (`slow_down`). */
export const DEVICE_SLOW_DOWN_STEP_SECONDS = 5;

export const POLL_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/**
 * A user code as typed into the web page, reduced to its 8 letters: case, spaces and dashes do
 * not matter. Anything longer than 64 characters or with other characters is null, so it is
 * refused before any lookup.
 */
export function normalizeUserCode(input: string): string | null {
  if (input.length > USER_CODE_MAX_INPUT) return null;
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH) return null;
  for (const letter of letters) if (!USER_CODE_ALPHABET.includes(letter)) return null;
  return letters;
}

/** The display form `XXXX-XXXX` of a normalised code. */
export function formatUserCode(letters: string): string {
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/**
 * Optional body of POST /v1/device/code **(ext)**: interface.md sends none, which asks for a
 * key with full access. A client may ask for fewer scopes and say what it is; the approval page
 * shows both.
 */
export const deviceCodeRequestSchema = z
  .strictObject({
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length)
      .optional()
      .meta({ description: 'Scopes the key should have; omitted or empty means full access' }),
    client_name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\p{L}\p{N}\p{P}\p{Zs}]+$/u, 'Must be printable text')
      .optional()
      .meta({ description: 'Shown on the approval page, e.g. "vitrine CLI 0.1.0 on laptop"' }),
  })
  .meta({ id: 'DeviceCodeRequest' });
export type DeviceCodeRequest = z.infer<typeof deviceCodeRequestSchema>;

/** 201 of POST /v1/device/code (interface.md 2.7). */
export const deviceCodeSchema = z
  .object({
    user_code: z.string().meta({ description: 'XXXX-XXXX, to type or confirm on the verification page' }),
    poll_token: z.string().regex(POLL_TOKEN_PATTERN).meta({ description: '64 lowercase hex characters' }),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int().meta({ description: 'Seconds until the code expires' }),
    interval: z.number().int().meta({ description: 'Minimum seconds between polls' }),
  })
  .meta({ id: 'DeviceCode' });
export type DeviceCode = z.infer<typeof deviceCodeSchema>;

/** Body of POST /v1/device/token. */
export const deviceTokenRequestSchema = z
  .strictObject({
    poll_token: z
      .string({ error: 'Must be a string of 64 lowercase hexadecimal characters' })
      .regex(POLL_TOKEN_PATTERN, 'Must be 64 lowercase hexadecimal characters'),
  })
  .meta({ id: 'DeviceTokenRequest' });

export const deviceTokenPendingSchema = z.object({
  status: z.literal('pending'),
  interval: z.number().int(),
  expires_in: z.number().int().meta({ description: 'Seconds left until the code expires' }),
});
export const deviceTokenAuthorizedSchema = z.object({
  status: z.literal('authorized'),
  api_key: z.string().meta({ description: 'Shown once' }),
  key_id: idSchema('apiKey'),
  user_id: idSchema('user'),
});

/** 200 of POST /v1/device/token: still pending, or the key (once). */
export const deviceTokenResponseSchema = z
  .discriminatedUnion('status', [deviceTokenPendingSchema, deviceTokenAuthorizedSchema])
  .meta({ id: 'DeviceTokenResponse' });
export type DeviceTokenResponse = z.infer<typeof deviceTokenResponseSchema>;
