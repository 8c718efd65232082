import { z } from 'zod';
import { domainSchema, PROFILE_DOMAIN_PATTERN } from './domain-name.ts';
import { idSchema, timestampSchema } from './ids.ts';
import { trimmedText } from './text-fields.ts';

/**
 * Limits on what an auth profile may hold (docs/api-decisions.md section 8): browsers keep about 180
 * cookies per domain and 4 KiB per cookie; localStorage is about 5 MiB per origin in browsers,
 * far more than a login needs, so the stored state is capped well below the body limit.
 */
export const AUTH_PROFILE_LIMITS = {
  cookies: 200,
  cookieNameChars: 256,
  /** Name plus value, as browsers count a cookie's size. */
  cookieBytes: 4096,
  cookieHeaderChars: 32 * 1024,
  origins: 20,
  localStorageItemsPerOrigin: 200,
  localStorageNameChars: 1024,
  localStorageValueChars: 16 * 1024,
  /** The whole merged state (cookies and localStorage) as JSON. */
  totalBytes: 128 * 1024,
  nameChars: 200,
} as const;

/** `status` of a profile (docs/api-decisions.md section 8). */
export const AUTH_PROFILE_STATUSES = ['active', 'expired', 'failing'] as const;
export type AuthProfileStatus = (typeof AUTH_PROFILE_STATUSES)[number];

export const SAME_SITE_VALUES = ['Strict', 'Lax', 'None'] as const;

const L = AUTH_PROFILE_LIMITS;

/** The cookie object of interface.md 2.2 (input only). Fields other than name and value are optional. */
export const cookieInputSchema = z
  .object({
    name: z.string().min(1).max(L.cookieNameChars),
    value: z.string().max(L.cookieBytes),
    domain: z
      .string()
      .max(253)
      .optional()
      .meta({ description: 'Default: the profile domain (host-only). A leading dot covers subdomains.' }),
    path: z.string().max(1024).optional().meta({ description: 'Default `/`' }),
    expires: z
      .number()
      .optional()
      .meta({ description: 'Unix seconds; -1 or absent: a session cookie (never expires)' }),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(SAME_SITE_VALUES).optional().meta({ description: 'Default `Lax`' }),
  })
  .meta({ id: 'AuthProfileCookie' });
export type CookieInput = z.infer<typeof cookieInputSchema>;

export const originInputSchema = z
  .object({
    origin: z.string().url().max(2048),
    localStorage: z
      .array(
        z.object({
          name: z.string().max(L.localStorageNameChars),
          value: z.string().max(L.localStorageValueChars),
        }),
      )
      .max(L.localStorageItemsPerOrigin),
  })
  .meta({ id: 'AuthProfileOrigin' });
export type OriginInput = z.infer<typeof originInputSchema>;

/**
 * Body of POST /v1/auth-profiles and PATCH /v1/auth-profiles/{id} (interface.md 4.7, 4.8).
 * `storage_state` is Playwright's own file format, so its inner objects accept (and drop) fields
 * that newer Playwright versions add (e.g. `partitionKey`); the body itself is strict.
 */
export const authProfileBodySchema = z
  .strictObject({
    domain: domainSchema(
      'The host the profile logs into (e.g. `app.example.com`; a URL is accepted, its host is kept); its subdomains are covered too. A public suffix (`com`, `co.uk`, `github.io`) is refused',
      PROFILE_DOMAIN_PATTERN,
    ),
    name: trimmedText(L.nameChars).optional().meta({ description: 'Default: the domain' }),
    project_id: idSchema('project').optional(),
    cookie_header: z.string().max(L.cookieHeaderChars).optional().meta({
      description: 'A `Cookie:` request header value; its cookies are set on the profile domain, path `/`',
    }),
    storage_state: z
      .object({
        cookies: z.array(cookieInputSchema).max(L.cookies).optional(),
        origins: z.array(originInputSchema).max(L.origins).optional(),
      })
      .optional()
      .meta({ description: "Playwright's storage state (`context.storageState()`)" }),
    cookies: z.array(cookieInputSchema).max(L.cookies).optional(),
    origins: z.array(originInputSchema).max(L.origins).optional(),
  })
  .meta({ id: 'AuthProfileRequest' });
export type AuthProfileBody = z.infer<typeof authProfileBodySchema>;

/** The auth profile of interface.md 2.2: never the stored cookies or storage values. */
export const authProfileSchema = z
  .object({
    id: idSchema('authProfile'),
    project_id: z.string().nullable(),
    name: z.string(),
    domain: z.string(),
    cookie_count: z.number().int(),
    status: z.enum(AUTH_PROFILE_STATUSES).meta({
      description:
        '`active`; `expired` when every cookie is past its expiry; `failing` when the last test failed',
    }),
    last_used_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'AuthProfile' });
export type AuthProfile = z.infer<typeof authProfileSchema>;

export const authProfileIdParamsSchema = z.strictObject({ id: idSchema('authProfile') });

export const authProfileResponseSchema = z.object({
  profile: authProfileSchema,
  warnings: z
    .array(z.string())
    .optional()
    .meta({ description: 'E.g. cookies dropped because their domain is outside the profile domain' }),
});

export const authProfileListQuerySchema = z.strictObject({
  project_id: idSchema('project').optional(),
});
export const authProfileListResponseSchema = z.object({ profiles: z.array(authProfileSchema) });

export const authProfileTestBodySchema = z.strictObject({
  url: z.string().min(1).max(4096).meta({ description: 'A page on the profile domain to load' }),
});
export const authProfileTestResponseSchema = z.object({
  ok: z.boolean().meta({ description: 'HTTP status below 400 and at least one profile cookie sent' }),
  cookie_count: z.number().int(),
  status: z.enum(AUTH_PROFILE_STATUSES),
  http_status: z.number().int().nullable().meta({ description: "The page's HTTP status, or null" }),
  cookies_sent: z.number().int().meta({ description: 'How many profile cookies the page request carried' }),
  final_url: z.string().nullable().meta({
    description: 'Where the page ended after redirects (e.g. a login page when the session is over)',
  }),
});

export const deletedResponseSchema = z.object({ deleted: z.boolean() });
