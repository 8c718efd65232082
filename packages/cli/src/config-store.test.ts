import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFile, resolveSettings, writeStoredConfig } from './config-store.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-config-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'vitrine');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the stored config', () => {
  it('is written readable by the user alone (file 0600, directory 0700)', () => {
    const env = { VITRINE_CONFIG_DIR: tempDir() };
    const file = writeStoredConfig(env, { url: 'http://127.0.0.1:9', api_key: 'vt_live_x' });
    expect(file).toBe(configFile(env));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(resolveSettings(env)).toMatchObject({
      url: 'http://127.0.0.1:9',
      apiKey: 'vt_live_x',
      keySource: 'config',
    });
  });

  it('lets VITRINE_URL and VITRINE_API_KEY override it, and never sends the stored key to another server', () => {
    const env = { VITRINE_CONFIG_DIR: tempDir() };
    writeStoredConfig(env, { url: 'http://127.0.0.1:9', api_key: 'vt_live_stored' });
    expect(resolveSettings({ ...env, VITRINE_API_KEY: 'vt_live_env' })).toMatchObject({
      url: 'http://127.0.0.1:9',
      apiKey: 'vt_live_env',
      keySource: 'VITRINE_API_KEY',
    });
    expect(resolveSettings({ ...env, VITRINE_URL: 'https://other.example/' })).toMatchObject({
      url: 'https://other.example',
      apiKey: undefined,
      keySource: 'none',
    });
    expect(() => resolveSettings({ ...env, VITRINE_URL: 'ftp://x' })).toThrow(/VITRINE_URL must be an http/);
  });

  it('says so when the file is damaged', () => {
    const env = { VITRINE_CONFIG_DIR: tempDir() };
    fs.mkdirSync(env.VITRINE_CONFIG_DIR, { recursive: true });
    fs.writeFileSync(configFile(env), '{"url": 1}');
    expect(() => resolveSettings(env)).toThrow(/damaged/);
  });
});
