import crypto from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always serialise equally. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The cache key of a render: a hash of its kind and its effective (resolved) parameters, so two
 * requests that differ only in spelling (`example.com` vs `https://example.com/`, an explicit
 * default) share a result. Fields that do not change the image (`async`, `webhook_url`,
 * `cache_ttl`, `show_resolved_params`) are not part of the resolved parameters.
 */
export function cacheKeyOf(kind: string, resolvedParams: Record<string, unknown>, authScope = ''): string {
  return crypto
    .createHash('sha256')
    .update(`${kind}\n${authScope}\n${stableJson(resolvedParams)}`)
    .digest('hex');
}
