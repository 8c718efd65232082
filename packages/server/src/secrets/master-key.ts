import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';

/** A master key from its text form: 64 hex characters or base64 of 32 bytes. */
export function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('The master key must be 32 bytes');
  return key;
}

/**
 * The master key that wraps per-record data keys: from VITRINE_SECRET_KEY when set, otherwise a
 * 0600 file in the data dir, created on first start (exclusive create, so two processes starting
 * together agree on one key).
 */
/** Where the master key file lives when VITRINE_SECRET_KEY is not set. */
export function masterKeyFile(dataDir: string): string {
  return path.join(dataDir, KEY_FILE);
}

/**
 * Master key rotation's file step, in two halves around the database transaction: `stage`
 * writes the new key beside the old one (0600) before anything changes, so it is never lost;
 * `commit` renames it over the old file (atomic on one file system); `abandon` removes it.
 */
export function stageMasterKeyFile(dataDir: string, key: Buffer) {
  const file = masterKeyFile(dataDir);
  const next = `${file}.next`;
  fs.writeFileSync(next, `${key.toString('hex')}\n`, { mode: 0o600 });
  return {
    next,
    commit: () => fs.renameSync(next, file),
    abandon: () => fs.rmSync(next, { force: true }),
  };
}

export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return decodeKey(configured);
  const file = masterKeyFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(fs.readFileSync(file, 'utf8'));
}
