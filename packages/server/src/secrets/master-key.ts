import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';

function decodeKey(text: string): Buffer {
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
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return decodeKey(configured);
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(fs.readFileSync(file, 'utf8'));
}
