import { z } from 'zod';
import { cookieInputSchema } from './auth-profiles.ts';

/**
 * Capture controls of issue 40: steps before the shot (`actions`), the browser's identity
 * (`headers`, `locale`, `timezone`, `geolocation`, `reduced_motion`, `color_scheme`, `cookies`),
 * HTML input (`html`, `css`) and page metadata (`metadata`). The limits bound what one request
 * can make the browser do; the server checks what a schema cannot say (one target per step, the
 * header deny list, the locale and time zone names, the html size in bytes) and answers 400
 * naming the field.
 */
export const CAPTURE_CONTROL_LIMITS = {
  actions: 20,
  /** Each step's own bound, and its default. */
  actionTimeoutMs: { default: 5000, max: 15_000 },
  /** One `wait` step. */
  actionWaitMs: 10_000,
  /** Every step's bound (`wait` ms, or timeout) added up. */
  actionsTotalMs: 60_000,
  actionTextChars: 5000,
  actionValueChars: 1000,
  actionKeyChars: 50,
  actionScrollPx: 100_000,
  headers: 20,
  headerNameChars: 256,
  headerValueChars: 4096,
  /** All names and values together. */
  headerBytes: 16 * 1024,
  requestCookies: 50,
  /** UTF-8 bytes of `html` (the JSON body is 256 KiB at most). */
  htmlBytes: 192 * 1024,
  cssBytes: 64 * 1024,
} as const;

const L = CAPTURE_CONTROL_LIMITS;

export const ACTION_TYPES = [
  'click',
  'hover',
  'type',
  'press',
  'scroll_to',
  'wait',
  'wait_for',
  'select',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const COLOR_SCHEMES = ['light', 'dark'] as const;

/**
 * Request headers Vitrine never sends on the caller's behalf: the host (a virtual host the
 * network policy did not check), hop-by-hop and framing headers (they belong to one connection,
 * and a smuggled value could split a request), the proxy's own, and those Chromium computes.
 * `cookie` is refused too (server side): extra headers reach every site a page loads from, while
 * `cookies` stay on theirs.
 */
export const DENIED_REQUEST_HEADERS = [
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  'http2-settings',
  'accept-language',
  'user-agent',
] as const;

const selector = z.string().min(1).max(1000).meta({ description: 'CSS selector' });
const element = z
  .string()
  .min(1)
  .max(500)
  .meta({ description: 'The element in plain words ("Pricing tab"), found like `element`' });
const timeoutMs = z
  .number()
  .int()
  .min(1)
  .max(L.actionTimeoutMs.max)
  .optional()
  .meta({ description: 'Longest this step may take, in ms', default: L.actionTimeoutMs.default });

/** A step's target: exactly one of `selector` or `element` (checked by the server). */
const target = { selector: selector.optional(), element: element.optional(), timeout_ms: timeoutMs };

export const actionSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('click'), ...target }),
    z.strictObject({ type: z.literal('hover'), ...target }),
    z.strictObject({
      type: z.literal('type'),
      ...target,
      text: z.string().max(L.actionTextChars).meta({ description: 'Replaces the field’s value' }),
    }),
    z.strictObject({
      type: z.literal('press'),
      ...target,
      key: z
        .string()
        .min(1)
        .max(L.actionKeyChars)
        .regex(/^[A-Za-z0-9+]+$|^.$/u)
        .meta({ description: 'A key or a chord: `Enter`, `Escape`, `ArrowDown`, `Control+A`, `a`' }),
    }),
    z.strictObject({
      type: z.literal('scroll_to'),
      ...target,
      y: z
        .number()
        .int()
        .min(0)
        .max(L.actionScrollPx)
        .optional()
        .meta({ description: 'CSS px from the top, instead of a selector or element' }),
      x: z.number().int().min(0).max(L.actionScrollPx).optional(),
    }),
    z.strictObject({
      type: z.literal('wait'),
      ms: z.number().int().min(0).max(L.actionWaitMs),
    }),
    z.strictObject({
      type: z.literal('wait_for'),
      selector,
      state: z.enum(['visible', 'hidden']).optional().meta({ default: 'visible' }),
      timeout_ms: timeoutMs,
    }),
    z.strictObject({
      type: z.literal('select'),
      ...target,
      value: z
        .string()
        .max(L.actionValueChars)
        .meta({ description: 'The option to choose, by its value or its label' }),
    }),
  ])
  .meta({ id: 'CaptureAction' });
export type CaptureAction = z.infer<typeof actionSchema>;

export const geolocationSchema = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().min(0).max(100_000).optional().meta({ description: 'Metres', default: 10 }),
});

/** The request fields of issue 40, spread into the "Target and browser" fields. */
export const captureControlFieldsShape = {
  actions: z
    .array(actionSchema)
    .max(L.actions)
    .optional()
    .meta({
      description: `Steps run in order after the page loaded (and after \`wait_for\`), before the shot: ${ACTION_TYPES.join(', ')}. Each step is bounded (\`timeout_ms\`, default ${L.actionTimeoutMs.default}, max ${L.actionTimeoutMs.max}); a failing step answers 422 \`capture_failed\` with \`details.reason: action_failed\`, its \`step\` index and \`type\``,
    }),
  headers: z
    .record(z.string().min(1).max(L.headerNameChars), z.string().max(L.headerValueChars))
    .optional()
    .meta({
      description: `Extra request headers, sent with every request of the page, third-party ones included (use \`cookies\` for a login: they stay on their site); at most ${L.headers}. Refused: ${DENIED_REQUEST_HEADERS.join(', ')}, proxy-* and sec-*, cookie (use \`cookies\`, which stay on their site), and any CR, LF or NUL`,
    }),
  locale: z
    .string()
    .min(2)
    .max(35)
    .optional()
    .meta({ description: 'BCP 47 language tag (`de-DE`): Accept-Language, navigator.language and Intl' }),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'IANA time zone (`Asia/Tokyo`) the page sees' }),
  geolocation: geolocationSchema
    .optional()
    .meta({ description: 'The position navigator.geolocation reports (the permission is granted)' }),
  reduced_motion: z
    .boolean()
    .optional()
    .meta({ description: 'Emulate prefers-reduced-motion: reduce', default: false }),
  color_scheme: z.enum(COLOR_SCHEMES).optional().meta({
    description: 'prefers-color-scheme; `dark` is `dark_mode: true`. Not with a different dark_mode',
  }),
  cookies: z.array(cookieInputSchema).max(L.requestCookies).optional().meta({
    description:
      "Cookies for this capture only, checked like an auth profile's: on the target's site or its subdomains (another site's cookie is refused). Not with async",
  }),
  html: z
    .string()
    .min(1)
    .max(L.htmlBytes)
    .optional()
    .meta({
      description: `An HTML document to render instead of \`url\` (at most ${L.htmlBytes / 1024} KiB); its subresources load through the same network policy as any page`,
    }),
  css: z
    .string()
    .max(L.cssBytes)
    .optional()
    .meta({ description: 'A stylesheet added to `html` (only with `html`)' }),
  metadata: z.boolean().optional().meta({
    description:
      "Return the page's metadata in the result (`metadata`): title, description, Open Graph and Twitter tags, canonical URL, favicon, theme colour, language, main colours and fonts",
    default: false,
  }),
};

/** `metadata` of a capture result (with `metadata: true`). */
export const pageMetadataSchema = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    canonical_url: z.string().nullable(),
    favicon_url: z.string().nullable(),
    theme_color: z.string().nullable(),
    language: z.string().nullable(),
    open_graph: z.record(z.string(), z.string()),
    twitter: z.record(z.string(), z.string()),
    colors: z.object({
      text: z.string().nullable(),
      background: z.string().nullable(),
      buttons: z.array(z.string()),
      links: z.array(z.string()),
      headings: z.array(z.string()),
    }),
    fonts: z.object({ headings: z.string().nullable(), body: z.string().nullable() }),
  })
  .meta({ id: 'PageMetadata' });
export type PageMetadata = z.infer<typeof pageMetadataSchema>;
