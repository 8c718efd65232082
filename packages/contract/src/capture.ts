import { z } from 'zod';
import { captureControlFieldsShape, pageMetadataSchema } from './capture-controls.ts';
import { CAPTURE_DEFAULTS as D } from './capture-defaults.ts';
import {
  ASPECT_RATIOS,
  BACKGROUND_PRESETS,
  composeFieldsShape,
  DEVICES,
  SHADOW_PRESETS,
} from './compose-fields.ts';
import { idPattern, idSchema, timestampSchema } from './ids.ts';
import { motionSchema, VIDEO_FORMATS, videoResultSchema } from './motion.ts';
import { SCENE_LIMITS, sceneSchema } from './scenes.ts';
import { WEBHOOK_VERIFICATION_SUMMARY } from './webhooks.ts';

/** Image formats: every capture can be encoded as one. */
export const OUTPUT_FORMATS = ['png', 'webp', 'jpg', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** What `output.format` accepts: an image format, or a video format with `motion`. */
export const REQUEST_FORMATS = [...OUTPUT_FORMATS, ...VIDEO_FORMATS] as const;
export type RequestFormat = (typeof REQUEST_FORMATS)[number];

export const BLOCK_CATEGORIES = ['ads', 'trackers', 'cookie-banners', 'chat-widgets'] as const;
export const BLOCK_RESOURCE_TYPES = ['image', 'font', 'media', 'script', 'stylesheet'] as const;

/** Limits of docs/api-decisions.md section 4, shared by validation and documentation. */
export const CAPTURE_LIMITS = {
  viewportWidth: { min: 200, max: 3840 },
  viewportHeight: { min: 200, max: 4320 },
  captureDpr: { min: 1, max: 3 },
  waitForMs: { max: 30_000 },
  selectorWaitMs: 10_000,
  blockEntries: 50,
  injectCssBytes: 64 * 1024,
  fullPageMaxCssPx: 16_384,
  outputSide: 6144,
  cacheTtlMax: 2_592_000,
} as const;

const selectorString = z.string().min(1).max(1000);

export const viewportSchema = z.strictObject({
  width: z.number().int().min(CAPTURE_LIMITS.viewportWidth.min).max(CAPTURE_LIMITS.viewportWidth.max),
  height: z.number().int().min(CAPTURE_LIMITS.viewportHeight.min).max(CAPTURE_LIMITS.viewportHeight.max),
});

/** "Target and browser" fields of interface.md 4.6. */
export const targetFieldsShape = {
  url: z.string().min(1).max(4096).optional().meta({
    description: 'http(s) URL to capture; a bare host gets https://. Required (or `site`, or `html`).',
  }),
  site: z.string().min(1).max(4096).optional().meta({ description: 'Alias for `url`' }),
  project_id: idSchema('project').optional(),
  auth_profile_id: idSchema('authProfile').optional(),
  viewport: viewportSchema
    .optional()
    .meta({ description: 'CSS px; with a device and no viewport, the device viewport', default: D.viewport }),
  capture_dpr: z
    .number()
    .min(CAPTURE_LIMITS.captureDpr.min)
    .max(CAPTURE_LIMITS.captureDpr.max)
    .optional()
    .meta({ description: "Device scale factor of the capture; default the device's, else output.dpr" }),
  user_agent: z.string().min(1).max(1024).optional(),
  emulate_mobile: z.boolean().optional().meta({ default: D.emulate_mobile }),
  emulate_touch: z.boolean().optional(),
  wait_for: z
    .union([z.number().int().min(0).max(CAPTURE_LIMITS.waitForMs.max), selectorString])
    .optional()
    .meta({
      description: 'Milliseconds to wait after load (0-30000), or a CSS selector to wait for (max 10 s)',
    }),
  block: z
    .array(z.string().min(1).max(1000))
    .max(CAPTURE_LIMITS.blockEntries)
    .optional()
    .meta({
      description: `Resource types (${BLOCK_RESOURCE_TYPES.join(', ')}), categories (${BLOCK_CATEGORIES.join(', ')}) or URL globs`,
    }),
  inject_css: z.string().max(CAPTURE_LIMITS.injectCssBytes).optional(),
  dark_mode: z.boolean().optional().meta({ default: D.dark_mode }),
  full_page: z.boolean().optional().meta({ default: D.full_page }),
  hide_selectors: z.array(selectorString).max(CAPTURE_LIMITS.blockEntries).optional(),
  element: z.string().min(1).max(500).optional().meta({
    description:
      'One part of the page in plain words ("pricing table", "signup form"); captured like selector, reported in element_resolved. Not with selector or full_page',
    // Whitespace alone describes nothing: the server answers 400.
    pattern: '\\S',
  }),
  selector: selectorString.optional(),
  ...captureControlFieldsShape,
};

/** `output` of an unstyled capture (POST /v1/raw): images only. */
const imageOutputSchema = z.strictObject({
  format: z.enum(OUTPUT_FORMATS).optional().meta({ default: D.output.format }),
  width: z.number().int().min(1).max(CAPTURE_LIMITS.outputSide).optional(),
  height: z.number().int().min(1).max(CAPTURE_LIMITS.outputSide).optional(),
  quality: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'webp, jpg and avif (default 90, 90, 60); png is lossless and ignores it' }),
  dpr: z.literal([1, 2, 3]).optional().meta({ default: D.output.dpr }),
});

export const outputSchema = z.strictObject({
  format: z
    .enum(REQUEST_FORMATS)
    .optional()
    .meta({
      description: `Image format; ${VIDEO_FORMATS.join(', ')} with \`motion\` (default mp4 then)`,
      default: D.output.format,
    }),
  width: z.number().int().min(1).max(CAPTURE_LIMITS.outputSide).optional(),
  height: z.number().int().min(1).max(CAPTURE_LIMITS.outputSide).optional(),
  quality: z.number().int().min(1).max(100).optional().meta({
    description:
      'webp, jpg and avif (default 90, 90, 60); mp4 and webm (onto the codec scale); png is lossless and ignores it',
  }),
  dpr: z.literal([1, 2, 3]).optional().meta({ default: D.output.dpr }),
});
export type OutputOptions = z.infer<typeof outputSchema>;

export const deliveryFieldsShape = {
  output: outputSchema.optional(),
  cache_ttl: z.number().int().min(0).max(CAPTURE_LIMITS.cacheTtlMax).optional().meta({
    description: 'Seconds a stored result is reused for the same request; 0 never',
    default: D.cache_ttl,
  }),
  show_resolved_params: z.boolean().optional().meta({ default: D.show_resolved_params }),
};

const FULL_PAGE_ON = { required: ['full_page'], properties: { full_page: { const: true } } };
/** "`name` is given" in JSON Schema, with the property stated so that linters can check it. */
const GIVEN = (name: string) => ({ required: [name], properties: { [name]: { type: 'string' } } });

/**
 * Combinations of the target fields the server refuses with 400 (captures/resolve/resolve-page.ts), in
 * JSON Schema so that a client reading the document can see them. `url` is required unless
 * `site` is given (`if`/`then`, which the object's own `required` cannot say; an `anyOf` of two
 * `required` lists would say it too, but openapi-typescript turns that into `unknown`).
 */
const TARGET_RULES = {
  if: { not: { anyOf: [GIVEN('site'), GIVEN('html')] } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword, never awaited
  then: { required: ['url'] },
  dependentSchemas: {
    element: {
      not: {
        anyOf: [{ required: ['selector'], properties: { selector: { type: 'string' } } }, FULL_PAGE_ON],
      },
    },
    selector: { not: FULL_PAGE_ON },
    html: { not: { anyOf: [GIVEN('url'), GIVEN('site')] } },
    css: GIVEN('html'),
  },
};
const TARGET_RULES_TEXT =
  '`url` (or its alias `site`) is required unless `html` is given, and excluded by it; `css` needs `html`; `element` excludes `selector` and `full_page: true`; `selector` excludes `full_page: true`.';

/** POST /v1/raw (ext): the "Target and browser" and `output` fields only. */
export const rawCaptureRequestSchema = z
  .strictObject({ ...targetFieldsShape, ...deliveryFieldsShape, output: imageOutputSchema.optional() })
  .meta({
    id: 'RawCaptureRequest',
    description: `Rules besides the fields' own: ${TARGET_RULES_TEXT}`,
    ...TARGET_RULES,
  });
export type RawCaptureRequest = z.infer<typeof rawCaptureRequestSchema>;

/** The capture result of interface.md 2.6. */
export const captureResultSchema = z
  .object({
    id: idSchema('capture'),
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    format: z.enum(REQUEST_FORMATS),
    duration_ms: z.number().int(),
    credits_used: z.number().int(),
    cached: z.boolean(),
    warnings: z.array(z.string()),
    created_at: timestampSchema,
    resolved_params: z.record(z.string(), z.unknown()),
    ai_decisions: z.record(z.string(), z.unknown()),
    element_resolved: z.record(z.string(), z.unknown()),
    metadata: pageMetadataSchema
      .optional()
      .meta({ description: "The page's metadata, with `metadata: true`" }),
    video: videoResultSchema
      .optional()
      .meta({ description: 'With `motion`: the video and its poster image' }),
  })
  .meta({ id: 'CaptureResult' });
export type CaptureResult = z.infer<typeof captureResultSchema>;

/** AI assistance fields of interface.md 4.6. */
export const aiFieldsShape = {
  ai: z.boolean().optional(),
  ai_style: z.boolean().optional(),
  ai_copy: z.boolean().optional(),
  ai_brand: z.boolean().optional().meta({
    description:
      "(ext) apply the project's brand (colours to the gradient, heading font to the title: the site's own web font file when its page loads one, dark mode to the preset)",
  }),
  prompt: z.string().min(1).max(1000).optional(),
};

export const asyncFieldsShape = {
  async: z
    .boolean()
    .optional()
    .meta({ description: 'true queues a job and answers 202 with its id', default: D.async }),
  webhook_url: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .meta({ description: `Receives the job result (with async). ${WEBHOOK_VERIFICATION_SUMMARY}` }),
};

/** A shot of a scene: its own fields are the request's own (scenes.ts, SHOT_FIELDS). */
export const shotSchema = z
  .strictObject({
    url: targetFieldsShape.url.meta({ description: "http(s) URL of this shot; default the request's" }),
    viewport: targetFieldsShape.viewport,
    capture_dpr: targetFieldsShape.capture_dpr,
    device: composeFieldsShape.device,
    device_color: composeFieldsShape.device_color,
    device_scale: composeFieldsShape.device_scale,
    dark_mode: targetFieldsShape.dark_mode,
    full_page: targetFieldsShape.full_page,
    element: targetFieldsShape.element,
    selector: targetFieldsShape.selector,
    wait_for: targetFieldsShape.wait_for,
    hide_selectors: targetFieldsShape.hide_selectors,
    inject_css: targetFieldsShape.inject_css,
    frame_ratio: composeFieldsShape.frame_ratio,
  })
  .meta({
    id: 'SceneShot',
    description:
      "One shot of a scene: a page (its own `url`, else the request's), how it is captured and the device that frames it. The other fields of the request apply to every shot. `element` excludes `selector` and `full_page: true`",
  });
export type ShotRequest = z.infer<typeof shotSchema>;

/** `shots` and `scene` of a capture request (issue 38). */
export const sceneFieldsShape = {
  shots: z
    .array(shotSchema)
    .min(SCENE_LIMITS.shots.min)
    .max(SCENE_LIMITS.shots.max)
    .optional()
    .meta({
      description: `A scene: ${SCENE_LIMITS.shots.min} to ${SCENE_LIMITS.shots.max} shots in one image, each in its own frame, on one background under one set of titles. Shots of the same page and browser settings share one page load. Costs \`capture\` per page load (plus \`full_page\` per full-page one). Not with \`motion\`, AI assistance or a cropped \`layout\``,
    }),
  scene: sceneSchema.optional(),
};

/** POST /v1/capture: every field of interface.md 4.6. */
export const captureRequestSchema = z
  .strictObject({
    ...targetFieldsShape,
    ...composeFieldsShape,
    ...aiFieldsShape,
    ...deliveryFieldsShape,
    ...asyncFieldsShape,
    motion: motionSchema.optional(),
    ...sceneFieldsShape,
  })
  .meta({
    id: 'CaptureRequest',
    description: `Rules besides the fields' own: ${TARGET_RULES_TEXT} \`webhook_url\` requires \`async: true\`; \`scene\` requires \`shots\`.`,
    if: TARGET_RULES.if,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword, never awaited
    then: TARGET_RULES.then,
    dependentSchemas: {
      ...TARGET_RULES.dependentSchemas,
      webhook_url: { required: ['async'], properties: { async: { const: true } } },
      scene: { required: ['shots'], properties: { shots: { type: 'array' } } },
    },
    // Shown by the /docs reference as the request example.
    examples: [{ url: 'https://example.com', device: 'macbook-pro-16', title: 'Ship faster', padding: 48 }],
  });
export type CaptureRequest = z.infer<typeof captureRequestSchema>;

export const CAPTURE_RESPONSE_MODES = ['json', 'redirect', 'image'] as const;

const queryText = z.string().max(8192);

/**
 * A query field the handler checks as the POST field it maps to: the document states the
 * values that field accepts (its enum, its type), while the query schema keeps the raw string
 * so that an error names the field the same way for GET and POST.
 */
function queryFieldAs(documented: Record<string, unknown>) {
  return queryText.optional().meta(documented);
}
const outputSide = { type: 'integer', minimum: 1, maximum: CAPTURE_LIMITS.outputSide };

/**
 * GET /v1/capture: the query-string shorthand (interface.md 4.5). Values stay strings here; the
 * handler maps them onto the POST body (`site` = url, `bg` = background_preset, `width`,
 * `height`, `format` = output.*) and validates that, so errors name the same fields.
 */
export const captureQuerySchema = z.strictObject({
  site: queryText.optional().meta({ description: 'Alias for `url`' }),
  url: queryText
    .optional()
    .meta({ description: 'http(s) URL to capture (or `site`, or `url` in `payload`)' }),
  device: queryFieldAs({ enum: [...DEVICES] }),
  bg: queryFieldAs({ enum: [...BACKGROUND_PRESETS], description: 'Alias for `background_preset`' }),
  background_preset: queryFieldAs({ enum: [...BACKGROUND_PRESETS] }),
  shadow: queryFieldAs({ enum: [...SHADOW_PRESETS] }),
  aspect_ratio: queryFieldAs({ enum: [...ASPECT_RATIOS] }),
  selector: queryText.optional().meta({ description: 'Not with `element` or `full_page: true`' }),
  element: queryFieldAs({ pattern: '\\S', description: 'Not with `selector` or `full_page: true`' }),
  format: queryFieldAs({ enum: [...REQUEST_FORMATS], description: '`output.format`' }),
  width: queryFieldAs({ ...outputSide, description: '`output.width` in pixels' }),
  height: queryFieldAs({ ...outputSide, description: '`output.height` in pixels' }),
  project_id: queryFieldAs({ pattern: idPattern('project').source }),
  auth_profile_id: queryFieldAs({ pattern: idPattern('authProfile').source }),
  expires: queryFieldAs({ type: 'integer', description: 'Signed URLs: unix seconds' }),
  signature: queryFieldAs({
    pattern: '^[0-9a-f]{64}$',
    description: 'Signed URLs: lowercase hex HMAC-SHA256 (contract: signing recipe)',
  }),
  payload: queryText
    .optional()
    .meta({ description: 'base64url JSON of a POST body; query fields override it' }),
  response: z.enum(CAPTURE_RESPONSE_MODES).optional().meta({
    description:
      '`json` (default, 201), `redirect` (302 to the image), `image` (200 with the bytes, for <img src>)',
  }),
  api_key: queryText.optional(),
});
export type CaptureQuery = z.infer<typeof captureQuerySchema>;
