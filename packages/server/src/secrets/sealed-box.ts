import crypto from 'node:crypto';

/**
 * Envelope encryption for stored secrets: each value gets its own random AES-256-GCM data key,
 * which is itself encrypted ("wrapped") with the master key. The record id is bound as
 * additional authenticated data, so a sealed value copied onto another record fails to open.
 *
 * Format (text): `v1.<wrapIv>.<wrappedKey+tag>.<iv>.<ciphertext+tag>`, each part base64url.
 */
export interface SealedBox {
  seal(plaintext: string, recordId: string): string;
  open(sealed: string, recordId: string): string;
  /**
   * The same sealed value with its data key wrapped by `newMasterKey` instead (master key
   * rotation): the value itself is not decrypted, and a value that does not open under this
   * box's master key (or for this record) throws.
   */
  rewrap(sealed: string, recordId: string, newMasterKey: Buffer): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; body: Buffer } {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv, body };
}

function decrypt(key: Buffer, iv: Buffer, body: Buffer, aad: Buffer): Buffer {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}

interface SealedParts {
  wrapIv: Buffer;
  wrappedKey: Buffer;
  iv: Buffer;
  body: Buffer;
}

function formatSealed(parts: SealedParts): string {
  return [
    'v1',
    ...[parts.wrapIv, parts.wrappedKey, parts.iv, parts.body].map((p) => p.toString('base64url')),
  ].join('.');
}

/** The four base64url parts of a `v1` sealed value. */
function parseSealed(sealed: string): SealedParts {
  const [version, wrapIv, wrappedKey, iv, body, ...rest] = sealed.split('.');
  if (version !== 'v1' || !wrapIv || !wrappedKey || !iv || !body || rest.length > 0)
    throw new Error('Malformed sealed value');
  const decode = (part: string) => Buffer.from(part, 'base64url');
  return { wrapIv: decode(wrapIv), wrappedKey: decode(wrappedKey), iv: decode(iv), body: decode(body) };
}

export function createSealedBox(masterKey: Buffer): SealedBox {
  if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
  return {
    seal(plaintext, recordId) {
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = crypto.randomBytes(32);
      const wrapped = encrypt(masterKey, dataKey, aad);
      const sealed = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), aad);
      return formatSealed({ wrapIv: wrapped.iv, wrappedKey: wrapped.body, iv: sealed.iv, body: sealed.body });
    },
    rewrap(sealed, recordId, newMasterKey) {
      if (newMasterKey.length !== 32) throw new Error('The master key must be 32 bytes');
      const parts = parseSealed(sealed);
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = decrypt(masterKey, parts.wrapIv, parts.wrappedKey, aad);
      // The data itself must open too, so a rotation never carries a corrupt record along.
      decrypt(dataKey, parts.iv, parts.body, aad);
      const wrapped = encrypt(newMasterKey, dataKey, aad);
      return formatSealed({ ...parts, wrapIv: wrapped.iv, wrappedKey: wrapped.body });
    },
    open(sealed, recordId) {
      const parts = parseSealed(sealed);
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = decrypt(masterKey, parts.wrapIv, parts.wrappedKey, aad);
      return decrypt(dataKey, parts.iv, parts.body, aad).toString('utf8');
    },
  };
}
