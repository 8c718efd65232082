import { z } from 'zod';
import { domainSchema } from './domain-name.ts';
import { idSchema, timestampSchema } from './ids.ts';
import { trimmedText } from './text-fields.ts';

export const BRAND_STATUSES = ['none', 'pending', 'processing', 'completed', 'failed', 'skipped'] as const;
export type BrandStatus = (typeof BRAND_STATUSES)[number];

/**
 * (ext, issue 34) The site's own file of its heading family (else its body family), when the page
 * loads it as a web font: kept with the brand so `ai_brand` titles are drawn in it.
 */
export const brandFontFileSchema = z
  .object({
    family: z.string().describe('The family the file is for, as the page names it'),
    source_url: z.string().describe('Where the page loads it from (`data: URL` when the page inlines it)'),
    generic: z
      .string()
      .nullable()
      .describe('The generic family the page lists after it (`serif`, `sans-serif`, `monospace`...), if any'),
    sha256: z
      .string()
      .nullable()
      .describe('SHA-256 (hex) of the face kept (WOFF2 is kept decompressed); null when none could be used'),
    error: z
      .string()
      .nullable()
      .describe(
        'Why the file could not be used (e.g. `the font file answered HTTP 404`): titles then use the nearest catalogue family',
      ),
  })
  .meta({ id: 'BrandFontFile' });
export type BrandFontFile = z.infer<typeof brandFontFileSchema>;

/** Extracted brand data (docs/api-decisions.md section 9). */
export const brandSchema = z
  .object({
    name: z.string().nullable(),
    description: z.string().nullable(),
    logo_url: z.string().nullable(),
    icon_url: z.string().nullable(),
    og_image_url: z.string().nullable(),
    colors: z.object({
      primary: z.string().nullable(),
      secondary: z.string().nullable(),
      accent: z.string().nullable(),
      background: z.string().nullable(),
      text: z.string().nullable(),
      palette: z.array(z.string()),
    }),
    fonts: z.object({
      heading: z.string().nullable(),
      body: z.string().nullable(),
      file: brandFontFileSchema
        .nullable()
        .optional()
        .describe(
          '(ext) The web font file of the heading (else body) family, fetched through the network policy (at most 2 MB, font files only); absent when the page loads neither as a web font',
        ),
    }),
    dark_mode: z.boolean().nullable(),
    source_url: z.string().nullable(),
    extracted_at: z.string().nullable(),
  })
  .meta({ id: 'Brand' });
export type Brand = z.infer<typeof brandSchema>;

export const projectSchema = z
  .object({
    id: idSchema('project'),
    name: z.string(),
    domain: z.string().nullable(),
    brand: brandSchema.nullable(),
    brand_status: z.enum(BRAND_STATUSES),
    brand_error: z.string().nullable(),
    is_default: z.boolean(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof projectSchema>;

const projectName = trimmedText(200);
const projectDomain = domainSchema(
  'A host name or URL; stored as its lowercase host (e.g. `example.com`), keeping an explicit non-default port',
);

export const createProjectBodySchema = z.strictObject({
  name: projectName.optional(),
  domain: projectDomain.optional(),
  make_default: z.boolean().optional(),
  start_brand_extract: z.boolean().default(true),
});
export type CreateProjectBody = z.infer<typeof createProjectBodySchema>;

export const updateProjectBodySchema = z.strictObject({
  name: projectName.optional(),
  domain: projectDomain.nullable().optional(),
});
export type UpdateProjectBody = z.infer<typeof updateProjectBodySchema>;

export const projectIdParamsSchema = z.strictObject({ id: idSchema('project') });

export const projectResponseSchema = z.object({ project: projectSchema });
export const createProjectResponseSchema = z.object({
  project: projectSchema,
  signing_secret: z.string().meta({
    description: 'Signs GET URLs and webhooks; read it again at GET /v1/projects/{id}/signing-secret',
  }),
});
export const projectListResponseSchema = z.object({ projects: z.array(projectSchema) });
export const successResponseSchema = z.object({ success: z.boolean() });
export const brandStatusResponseSchema = z.object({
  project: projectSchema,
  status: z.enum(BRAND_STATUSES),
  brand: brandSchema.nullable(),
});
/** `whsec_` + base64 of the secret's UTF-8 bytes: the form Standard Webhooks libraries take. */
export function webhookSecretOf(signingSecret: string): string {
  // btoa and TextEncoder, not Buffer: the contract also runs in the browser (the playground).
  return `whsec_${btoa(String.fromCharCode(...new TextEncoder().encode(signingSecret)))}`;
}
export const signingSecretResponseSchema = z.object({
  signing_secret: z.string().meta({
    description: 'Signs GET URLs (the HMAC key is this string as UTF-8) and the webhooks of this project',
  }),
  webhook_secret: z.string().meta({
    description:
      "`whsec_` + base64(signing_secret): give this to a Standard Webhooks verifier (e.g. npm `standardwebhooks`) to check this project's webhooks",
  }),
});
export const rotateSigningSecretResponseSchema = z.object({
  signing_secret: z.string(),
  previous_secret_expires_at: timestampSchema.nullable(),
});
