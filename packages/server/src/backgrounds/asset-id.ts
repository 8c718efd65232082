import { createHash } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The stable id of a catalogue asset: `bg_` + 26 Crockford base-32 characters taken from the
 * SHA-256 of its `pack/slug` reference, so the id never changes while the reference does not,
 * and needs no database.
 */
export function backgroundAssetId(pack: string, slug: string): string {
  const digest = createHash('sha256').update(`vitrine-background:${pack}/${slug}`).digest();
  let bits = 0n;
  for (const byte of digest.subarray(0, 17)) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out += CROCKFORD[Number((bits >> BigInt(130 - 5 * (i + 1) + 6)) & 31n)];
  }
  return `bg_${out}`;
}
