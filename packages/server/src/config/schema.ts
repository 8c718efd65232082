import { CREDIT_PRICE_DEFAULTS } from '@vitrine/contract';
import { z } from 'zod';
import { aiSection } from './ai-section.ts';
import { browserSection } from './browser-section.ts';
import { networkSection } from './network-section.ts';
import { bool, optionalString } from './parsers.ts';
import { queueSection } from './queue-section.ts';
import { storageSection } from './storage-section.ts';
import { section, variable } from './variable.ts';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const nonNegativeInt = z.coerce.number().int().min(0);

export const serverSection = section('Server', {
  host: variable({
    env: 'VITRINE_HOST',
    schema: z.string().min(1),
    form: 'a host name or IP address to listen on',
    description: 'Address the HTTP server binds to.',
    defaultText: '127.0.0.1',
  }),
  port: variable({
    env: 'VITRINE_PORT',
    schema: port,
    form: 'an integer from 0 to 65535 (0 picks a free port)',
    description: 'TCP port of the HTTP server.',
    defaultText: '8080',
  }),
  publicUrl: variable({
    env: 'VITRINE_PUBLIC_URL',
    schema: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    form: 'an absolute http(s) URL without a trailing path, e.g. https://shots.example.com',
    description:
      'Base of every URL the service hands out (image URLs, device login). Derived from host and port when unset.',
  }),
  dataDir: variable({
    env: 'VITRINE_DATA_DIR',
    schema: z.string().min(1),
    form: 'a directory path',
    description: 'Where the embedded database, stored images and the generated secret key live.',
    defaultText: './data',
  }),
  trustProxy: variable({
    env: 'VITRINE_TRUST_PROXY',
    schema: bool,
    form: 'true or false',
    description: 'Trust X-Forwarded-For from a reverse proxy for client IPs (rate limits, device login).',
    defaultText: 'false',
  }),
  logLevel: variable({
    env: 'VITRINE_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    form: 'one of fatal, error, warn, info, debug, trace, silent',
    description: 'Log level of the JSON log on stdout.',
    defaultText: 'info',
  }),
});

export const limitsSection = section('Limits', {
  bodyLimitBytes: variable({
    env: 'VITRINE_BODY_LIMIT_BYTES',
    schema: positiveInt.max(16 * 1024 * 1024),
    form: 'an integer number of bytes up to 16777216',
    description: 'Largest accepted JSON body; larger ones get 413 payload_too_large.',
    defaultText: '262144',
  }),
  requestTimeoutMs: variable({
    env: 'VITRINE_REQUEST_TIMEOUT_MS',
    schema: positiveInt.max(600_000),
    form: 'milliseconds, up to 600000',
    description: 'Longest time a client may take to send a whole request.',
    defaultText: '120000',
  }),
  signedUrlMaxTtlSeconds: variable({
    env: 'VITRINE_SIGNED_URL_MAX_TTL',
    schema: positiveInt,
    form: 'seconds, a positive integer',
    description:
      'Signed GET URLs whose `expires` lies further ahead than this are refused (signature_invalid).',
    defaultText: '604800',
  }),
  rateLimitCapturePerMinute: variable({
    env: 'VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE',
    schema: positiveInt,
    form: 'a positive integer',
    description: 'Requests per minute per API key on capture endpoints.',
    defaultText: '120',
  }),
  rateLimitDefaultPerMinute: variable({
    env: 'VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE',
    schema: positiveInt,
    form: 'a positive integer',
    description: 'Requests per minute per API key (or per IP when anonymous) on every other endpoint.',
    defaultText: '600',
  }),
  rateLimitDeviceCodePerMinute: variable({
    env: 'VITRINE_RATE_LIMIT_DEVICE_CODE_PER_MINUTE',
    schema: positiveInt,
    form: 'a positive integer',
    description: 'POST /v1/device/code requests per minute per client IP.',
    defaultText: '10',
  }),
});

export const storesSection = section('Database and Redis', {
  databaseUrl: variable({
    env: 'DATABASE_URL',
    schema: optionalString.pipe(
      z
        .string()
        .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
        .optional(),
    ),
    form: 'postgres://user:pass@host:5432/db, or sqlite:PATH',
    description: 'Database. Unset: an SQLite file `vitrine.sqlite` in the data dir (WAL mode).',
  }),
  redisUrl: variable({
    env: 'REDIS_URL',
    schema: optionalString.pipe(
      z
        .string()
        .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
        .optional(),
    ),
    form: 'redis://host:6379[/db]',
    description:
      'Redis, for rate limits shared across processes (and the distributed queue). Unset: in-process.',
  }),
  redisPrefix: variable({
    env: 'VITRINE_REDIS_PREFIX',
    schema: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    form: '1 to 40 letters, digits, _ or -',
    description:
      'Prefix of every Redis key (rate limits, queues), so several deployments can share one Redis.',
    defaultText: 'vitrine',
  }),
});

export const secretsSection = section('Secrets', {
  secretKey: variable({
    env: 'VITRINE_SECRET_KEY',
    schema: optionalString.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{64}$|^[A-Za-z0-9+/_-]{43}=?$/, 'must be 32 bytes as 64 hex characters or base64')
        .optional(),
    ),
    form: '32 bytes: 64 hex characters or 43/44 base64 characters (`openssl rand -hex 32`)',
    description:
      'Master key that wraps the keys of stored secrets (project signing secrets, auth profiles). Unset: a 0600 file `secret.key` is created in the data dir.',
  }),
});

export const creditsSection = section('Credits', {
  defaultMonthlyCredits: variable({
    env: 'VITRINE_DEFAULT_MONTHLY_CREDITS',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description:
      'Monthly credit allocation of a new account; the balance is reset to it at the start of each UTC month.',
    defaultText: '1000',
  }),
  priceCapture: variable({
    env: 'VITRINE_PRICE_CAPTURE',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits of a styled capture (POST and GET /v1/capture, async jobs).',
    defaultText: String(CREDIT_PRICE_DEFAULTS.capture),
  }),
  priceFullPage: variable({
    env: 'VITRINE_PRICE_FULL_PAGE',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits added to a styled capture with `full_page: true`.',
    defaultText: String(CREDIT_PRICE_DEFAULTS.full_page),
  }),
  priceOver8Megapixels: variable({
    env: 'VITRINE_PRICE_OVER_8_MEGAPIXELS',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits added to a styled capture whose output is larger than 8 megapixels.',
    defaultText: String(CREDIT_PRICE_DEFAULTS.over_8_megapixels),
  }),
  priceRaw: variable({
    env: 'VITRINE_PRICE_RAW',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits of an unstyled capture (POST /v1/raw). A cached result always costs 0.',
    defaultText: String(CREDIT_PRICE_DEFAULTS.raw),
  }),
  priceAiStyle: variable({
    env: 'VITRINE_PRICE_AI_STYLE',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits added to a capture with `ai_style` (or `ai`, or a `prompt`).',
    defaultText: String(CREDIT_PRICE_DEFAULTS.ai_style),
  }),
  priceAiCopy: variable({
    env: 'VITRINE_PRICE_AI_COPY',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits added to a capture with `ai_copy` (or `ai`).',
    defaultText: String(CREDIT_PRICE_DEFAULTS.ai_copy),
  }),
  priceVideoSecond: variable({
    env: 'VITRINE_PRICE_VIDEO_SECOND',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description: 'Credits added to a capture with `motion` per started second of its video.',
    defaultText: String(CREDIT_PRICE_DEFAULTS.video_second),
  }),
  priceAiBrand: variable({
    env: 'VITRINE_PRICE_AI_BRAND',
    schema: nonNegativeInt,
    form: 'a non-negative integer',
    description:
      "Credits added to a capture with `ai_brand`; waived when the capture's project has a completed brand.",
    defaultText: String(CREDIT_PRICE_DEFAULTS.ai_brand),
  }),
});

/** Every section, in the order docs/configuration.md lists them. */
export const CONFIG_SECTIONS = [
  serverSection,
  limitsSection,
  storesSection,
  secretsSection,
  creditsSection,
  aiSection,
  networkSection,
  browserSection,
  storageSection,
  queueSection,
] as const;
