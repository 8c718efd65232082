import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.ts';

describe('loadConfig', () => {
  it('applies defaults: SQLite in ./data, public URL from host and port', () => {
    const config = loadConfig({});
    expect(config.server).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'http://127.0.0.1:8080',
    });
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data/vitrine.sqlite') });
    expect(config.redisUrl).toBeUndefined();
    expect(config.limits.bodyLimitBytes).toBe(262_144);
  });

  it('switches to PostgreSQL with one variable', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1:5432/db' });
  });

  it('names every invalid variable and the form it expects', () => {
    try {
      loadConfig({
        VITRINE_PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        VITRINE_SECRET_KEY: 'short',
        VITRINE_PUBLIC_URL: 'ftp://x',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(4);
      expect(problems[0]).toBe(
        'VITRINE_PORT: expected an integer from 0 to 65535 (0 picks a free port), got "eighty"',
      );
      expect(problems.join('\n')).toMatch(/DATABASE_URL: expected postgres:\/\//);
      expect(problems.join('\n')).toMatch(/VITRINE_SECRET_KEY: expected 32 bytes/);
      expect(problems.join('\n')).toMatch(/VITRINE_PUBLIC_URL: expected an absolute http\(s\) URL/);
    }
  });

  it('strips a trailing slash from the public URL and reads sqlite: URLs', () => {
    const config = loadConfig({
      VITRINE_PUBLIC_URL: 'https://shots.example.com/',
      DATABASE_URL: 'sqlite:/tmp/x.db',
    });
    expect(config.server.publicUrl).toBe('https://shots.example.com');
    expect(config.database).toEqual({ kind: 'sqlite', file: '/tmp/x.db' });
  });
});
