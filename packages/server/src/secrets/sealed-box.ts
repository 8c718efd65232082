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

export function createSealedBox(masterKey: Buffer): SealedBox {
  if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
  return {
    seal(plaintext, recordId) {
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = crypto.randomBytes(32);
      const wrapped = encrypt(masterKey, dataKey, aad);
      const sealed = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), aad);
      return ['v1', wrapped.iv, wrapped.body, sealed.iv, sealed.body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    rewrap(sealed, recordId, newMasterKey) {
      if (newMasterKey.length !== 32) throw new Error('The master key must be 32 bytes');
      const [version, wrapIv, wrappedKey, iv, body] = sealed.split('.');
      if (version !== 'v1' || !wrapIv || !wrappedKey || !iv || !body)
        throw new Error('Malformed sealed value');
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = decrypt(
        masterKey,
        Buffer.from(wrapIv, 'base64url'),
        Buffer.from(wrappedKey, 'base64url'),
        aad,
      );
      // The data itself must open too, so a rotation never carries a corrupt record along.
      decrypt(dataKey, Buffer.from(iv, 'base64url'), Buffer.from(body, 'base64url'), aad);
      const wrapped = encrypt(newMasterKey, dataKey, aad);
      return ['v1', wrapped.iv.toString('base64url'), wrapped.body.toString('base64url'), iv, body].join('.');
    },
    open(sealed, recordId) {
      const [version, wrapIv, wrappedKey, iv, body] = sealed.split('.');
      if (version !== 'v1' || !wrapIv || !wrappedKey || !iv || !body)
        throw new Error('Malformed sealed value');
      const aad = Buffer.from(recordId, 'utf8');
      const dataKey = decrypt(
        masterKey,
        Buffer.from(wrapIv, 'base64url'),
        Buffer.from(wrappedKey, 'base64url'),
        aad,
      );
      return decrypt(dataKey, Buffer.from(iv, 'base64url'), Buffer.from(body, 'base64url'), aad).toString(
        'utf8',
      );
    },
  };
}
