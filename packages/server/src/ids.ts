import { ID_PREFIXES, type IdKind } from '@vitrine/contract';
import { ulid } from 'ulid';

/** A new public id: the kind's prefix plus a ULID (26 Crockford characters, time-ordered). */
export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + ulid();
}

/** A new id for internal records that never appear in the API (e.g. `crd_` ledger entries). */
export function newInternalId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}
