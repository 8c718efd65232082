import crypto from 'node:crypto';

/**
 * API key format (docs/api-decisions.md section 3): `vt_live_` or `vt_test_`, 32 random base62 characters,
 * then a 6-character base62 checksum of everything before it. The checksum lets us reject typos
 * and garbage before touching the database; only the SHA-256 of the whole key is stored.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 6;
const KEY_PATTERN = /^vt_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export type KeyMode = 'live' | 'test';

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let value = crypto.createHash('sha256').update(body).digest().readUIntBE(0, 6);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(mode: KeyMode): string {
  const body = `vt_${mode}_${randomBase62(RANDOM_CHARS)}`;
  return body + checksum(body);
}

/** The key's mode when it is well-formed and its checksum matches; otherwise null. */
export function parseApiKey(key: string): { mode: KeyMode } | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, key.length - CHECKSUM_CHARS);
  const expected = checksum(body);
  const given = match[3]!;
  if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(given))) return null;
  return { mode: match[1] as KeyMode };
}

export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** What listings show of a key: its type prefix and first random characters. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 'vt_live_'.length + 6)}…`;
}
