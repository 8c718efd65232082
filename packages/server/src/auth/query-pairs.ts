import { AppError } from '../errors/app-error.ts';

/**
 * Decodes a raw query string into key/value pairs, refusing duplicate keys (a signed request
 * must mean exactly one thing). `+` is a space, as in every form-encoded query.
 */
export function parseQueryPairs(rawQuery: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (pairs.has(key)) {
      throw new AppError('invalid_params', `Duplicate query parameter: ${key}`, {
        details: { issues: [{ path: key, message: `Duplicate query parameter: ${key}` }] },
      });
    }
    pairs.set(key, value);
  }
  return pairs;
}

/** The raw query string of a request URL (without `?`). */
export function rawQueryOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}
