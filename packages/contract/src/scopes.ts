/**
 * API key scopes (docs/api-decisions.md section 3). An empty scope list on a key means full access.
 * `keys` **(ext)** lets a key list, create and revoke its account's keys (`/v1/keys`).
 */
export const SCOPES = [
  'capture',
  'raw',
  'jobs',
  'usage',
  'projects',
  'auth_profiles',
  'renders',
  'keys',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a key with `held` scopes may hand out a key with `wanted` scopes: never more than it
 * has itself. Empty means full access on both sides.
 */
export function scopesCover(held: readonly Scope[], wanted: readonly Scope[]): boolean {
  if (held.length === 0) return true;
  if (wanted.length === 0) return false;
  return wanted.every((scope) => held.includes(scope));
}
