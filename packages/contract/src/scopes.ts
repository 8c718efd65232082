/**
 * API key scopes (contract.md section 3). An empty scope list on a key means full access.
 */
export const SCOPES = ['capture', 'raw', 'jobs', 'usage', 'projects', 'auth_profiles', 'renders'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
