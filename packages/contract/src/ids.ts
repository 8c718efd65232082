import { z } from 'zod';

/** Type prefixes of every id (docs/api-decisions.md section 1): prefix + 26-character Crockford ULID. */
export const ID_PREFIXES = {
  capture: 'cap_',
  job: 'job_',
  batch: 'bat_',
  project: 'prj_',
  authProfile: 'ap_',
  user: 'usr_',
  apiKey: 'key_',
  background: 'bg_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** The path form of interface.md: prefix + 26 characters from A-Z and 0-9. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}[A-Z0-9]{26}$`);
}

export function idSchema(kind: IdKind) {
  const prefix = ID_PREFIXES[kind];
  return z.string().regex(idPattern(kind), `Must be ${prefix} followed by 26 characters from A-Z and 0-9`);
}

export const timestampSchema = z.string().meta({ description: 'ISO-8601 UTC with milliseconds' });
