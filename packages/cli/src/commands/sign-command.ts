import { captureQuerySchema, captureRequestSchema, idPattern } from '@vitrine/contract';
import { type SignCaptureUrlOptions, signCaptureUrl as signWithSdk } from '@vitrine/sdk';
import type { Command } from 'commander';
import { type CliContext, print, settingsOf } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';

/** Pairs the command sets itself; giving them as query pairs would be ambiguous. */
const RESERVED = new Set(['signature', 'expires', 'api_key']);
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `30m`, `12h`, `7d`, `90s`, or an absolute unix time in seconds. */
export function parseExpiry(value: string, nowSeconds: number): number {
  const relative = /^(\d{1,7})([smhd])$/.exec(value.trim());
  if (relative) return nowSeconds + Number(relative[1]) * UNITS[relative[2]!]!;
  if (/^\d{9,12}$/.test(value.trim())) return Number(value.trim());
  throw new CliError(
    `Invalid --expires "${value}": give 30m, 12h, 7d, or a unix time in seconds`,
    EXIT.usage,
  );
}

/** The query pairs from `key=value` arguments; unknown and repeated keys are refused. */
export function parsePairs(args: readonly string[]): Map<string, string> {
  const known = new Set(Object.keys(captureQuerySchema.shape));
  const pairs = new Map<string, string>();
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at <= 0)
      throw new CliError(
        `Invalid query pair "${arg}": write key=value, e.g. url=https://example.com`,
        EXIT.usage,
      );
    const key = arg.slice(0, at);
    if (RESERVED.has(key))
      throw new CliError(`"${key}" is set by vitrine sign itself; use the flags instead`, EXIT.usage);
    if (!known.has(key)) {
      throw new CliError(
        `Unknown query field "${key}". Must be one of: ${[...known].filter((k) => !RESERVED.has(k)).join(', ')}`,
        EXIT.usage,
      );
    }
    if (pairs.has(key)) throw new CliError(`Query field "${key}" is given twice`, EXIT.usage);
    pairs.set(key, arg.slice(at + 1));
  }
  return pairs;
}

/**
 * A signed GET /v1/capture URL (docs/api-decisions.md section 4), computed locally by the SDK's signer: no
 * request is made. `pairs` holds `project_id`, the project whose secret signs.
 */
export function signCaptureUrl(options: {
  baseUrl: string;
  secret: string;
  pairs: Map<string, string>;
  expires: number;
}): string {
  const { project_id: projectId, ...query } = Object.fromEntries(options.pairs);
  if (!projectId) throw new CliError('A signed URL needs the project that signs it', EXIT.usage);
  return signWithSdk({
    baseUrl: options.baseUrl,
    projectId,
    signingSecret: options.secret,
    // The pairs were checked against the query's field names (parsePairs); the server checks values.
    query: query as SignCaptureUrlOptions['query'],
    expiresAt: options.expires,
  });
}

interface SignOptions {
  project?: string;
  secret?: string;
  expires: string;
  payload?: string;
}

function sign(context: CliContext, args: string[], options: SignOptions): void {
  const pairs = parsePairs(args);
  const project = options.project ?? pairs.get('project_id');
  if (!project || !idPattern('project').test(project)) {
    throw new CliError(
      'Give the project that signs: --project prj_... (its signing secret signs the URL)',
      EXIT.usage,
    );
  }
  if (pairs.has('project_id') && pairs.get('project_id') !== project) {
    throw new CliError('project_id and --project differ', EXIT.usage);
  }
  pairs.set('project_id', project);
  const secret = options.secret ?? context.env.VITRINE_SIGNING_SECRET;
  if (!secret) {
    throw new CliError(
      "Give the project's signing secret: set VITRINE_SIGNING_SECRET (or --secret)",
      EXIT.usage,
    );
  }
  if (options.payload !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(options.payload);
    } catch {
      throw new CliError('Invalid --payload: expected a JSON object of capture fields', EXIT.usage);
    }
    const checked = captureRequestSchema.partial().safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new CliError(
        `Invalid --payload field ${issue.path.join('.') || '(body)'}: ${issue.message}`,
        EXIT.usage,
      );
    }
    pairs.set('payload', Buffer.from(JSON.stringify(checked.data)).toString('base64url'));
  }
  if (!pairs.has('url') && !pairs.has('site') && !pairs.get('payload')) {
    throw new CliError('Say what to capture: url=https://...', EXIT.usage);
  }
  const expires = parseExpiry(options.expires, Math.floor(Date.now() / 1000));
  print(context, signCaptureUrl({ baseUrl: settingsOf(context).url, secret, pairs, expires }));
}

export function addSignCommand(program: Command, context: CliContext): void {
  program
    .command('sign')
    .description("Mint a signed GET /v1/capture URL locally from a project's signing secret (for <img src>)")
    .argument('<query...>', 'query fields as key=value: url=..., device=..., bg=..., response=image, ...')
    .option('--project <id>', 'the project whose secret signs (or project_id=... in the query)')
    .option(
      '--secret <secret>',
      'the signing secret (better: VITRINE_SIGNING_SECRET, kept out of shell history)',
    )
    .option('--expires <when>', 'how long the URL works: 30m, 12h, 7d, or a unix time', '1h')
    .option('--payload <json>', 'any other capture fields, as a JSON object (sent base64url-encoded)')
    .action((args: string[], options: SignOptions) => sign(context, args, options));
}
