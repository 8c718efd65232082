import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMasterKey } from './master-key.ts';
import { createSealedBox } from './sealed-box.ts';

describe('sealed box', () => {
  const box = createSealedBox(crypto.randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('vss_secret-value', 'prj_1');
    expect(sealed).not.toContain('secret');
    expect(box.open(sealed, 'prj_1')).toBe('vss_secret-value');
    expect(box.seal('same', 'prj_1')).not.toBe(box.seal('same', 'prj_1'));
  });

  it('refuses a value moved to another record, a tampered value, or another master key', () => {
    const sealed = box.seal('value', 'prj_1');
    expect(() => box.open(sealed, 'prj_2')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0]! ^= 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'prj_1')).toThrow();
    expect(() => createSealedBox(crypto.randomBytes(32)).open(sealed, 'prj_1')).toThrow();
  });

  it('re-wraps a value for a new master key without changing it, and refuses one that does not open', () => {
    const sealed = box.seal('value', 'prj_1');
    const newKey = crypto.randomBytes(32);
    const rewrapped = box.rewrap(sealed, 'prj_1', newKey);
    expect(createSealedBox(newKey).open(rewrapped, 'prj_1')).toBe('value');
    expect(() => box.open(rewrapped, 'prj_1')).toThrow();
    expect(() => box.rewrap(sealed, 'prj_2', newKey)).toThrow();
    expect(() => createSealedBox(newKey).rewrap(sealed, 'prj_1', newKey)).toThrow();
  });

  it('creates a 0600 master key file once and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-key-'));
    try {
      const first = loadMasterKey(undefined, dir);
      const second = loadMasterKey(undefined, dir);
      expect(first.equals(second)).toBe(true);
      expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
      const configured = loadMasterKey('ab'.repeat(32), dir);
      expect(configured.toString('hex')).toBe('ab'.repeat(32));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
