import crypto from 'node:crypto';
import type { CaptureQuery } from './types.ts';

const SIGNED_PATH = '/v1/capture';

/**
 * The canonical string of a signed request (docs/api-decisions.md section 4): METHOD, PATH and every query
 * pair but `signature`, each `encodeURIComponent(key)=encodeURIComponent(value)`, sorted as whole
 * strings and joined by `&`. The same recipe as the server's; a test signs with both.
 */
export function canonicalString(
  method: string,
  path: string,
  pairs: Iterable<readonly [string, string]>,
): string {
  const encoded = [...pairs]
    .filter(([key]) => key !== 'signature')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .sort();
  return `${method.toUpperCase()}\n${path}\n${encoded.join('&')}`;
}

export interface SignCaptureUrlOptions {
  /** The server's origin, e.g. `https://vitrine.example.com`. */
  baseUrl: string;
  /** The project whose signing secret signs; it pays for the capture. */
  projectId: string;
  /** The project's signing secret (shown when the project is created or its secret rotated). */
  signingSecret: string;
  /** The capture, as GET /v1/capture's query (`url`, `device`, `bg`, `response`, ...). */
  query: Omit<CaptureQuery, 'project_id' | 'expires' | 'signature' | 'api_key'>;
  /** When the URL stops working: a Date, or unix seconds. Default: `expiresInSeconds` from now. */
  expiresAt?: Date | number;
  /** Default 3600; the server refuses more than its VITRINE_SIGNED_URL_MAX_TTL (7 days by default). */
  expiresInSeconds?: number;
  now?: Date;
}

/**
 * A signed GET /v1/capture URL: anyone holding it may make that one capture, charged to the
 * project, until it expires, with no API key (for `<img src>`, add `response: 'image'`).
 */
export function signCaptureUrl(options: SignCaptureUrlOptions): string {
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expires =
    options.expiresAt instanceof Date
      ? Math.floor(options.expiresAt.getTime() / 1000)
      : (options.expiresAt ?? nowSeconds + (options.expiresInSeconds ?? 3600));
  const pairs: [string, string][] = Object.entries(options.query)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => [key, String(value)]);
  pairs.push(['project_id', options.projectId], ['expires', String(expires)]);
  const signature = crypto
    .createHmac('sha256', options.signingSecret)
    .update(canonicalString('GET', SIGNED_PATH, pairs))
    .digest('hex');
  const query = new URLSearchParams([...pairs, ['signature', signature]]);
  return `${options.baseUrl.replace(/\/+$/, '')}${SIGNED_PATH}?${query.toString()}`;
}
