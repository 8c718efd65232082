import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from '../../packages/server/src/logger.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe('redactUrl', () => {
  it.each([
    ['/v1/usage?api_key=SECRET', '/v1/usage?api_key=[redacted]'],
    ['/v1/usage?api%5Fkey=SECRET', '/v1/usage?api%5Fkey=[redacted]'],
    ['/v1/usage?api%5fkey=SECRET&x=1', '/v1/usage?api%5fkey=[redacted]&x=1'],
    ['/v1/usage?%61%70%69%5F%6B%65%79=SECRET', '/v1/usage?%61%70%69%5F%6B%65%79=[redacted]'],
    ['/v1/usage?API_KEY=SECRET', '/v1/usage?API_KEY=[redacted]'],
    ['/v1/usage?Api_Key=SE%43RET', '/v1/usage?Api_Key=[redacted]'],
    ['/v1/usage?api_key+=SECRET', '/v1/usage?api_key+=[redacted]'],
    ['/v1/capture?signature=SECRET&expires=1', '/v1/capture?signature=[redacted]&expires=1'],
    ['/v1/capture?sig%6Eature=SECRET', '/v1/capture?sig%6Eature=[redacted]'],
    [
      '/v1/capture?a=1&signature=S1&signature=S2',
      '/v1/capture?a=1&signature=[redacted]&signature=[redacted]',
    ],
    ['/v1/usage?api_key=SECRET#frag', '/v1/usage?api_key=[redacted]#frag'],
    ['/v1/usage?%E0%A4%A=SECRET', '/v1/usage?%E0%A4%A=[redacted]'],
    [
      '/v1/capture?url=https%3A%2F%2Fexample.com&width=800',
      '/v1/capture?url=https%3A%2F%2Fexample.com&width=800',
    ],
    ['/v1/usage', '/v1/usage'],
    ['/v1/usage?api_key', '/v1/usage?api_key'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    expect(redactUrl(url)).not.toMatch(/SE(%43|C)RET|S1|S2/);
  });
});

// The exact reproduction of issue 35: `api%5Fkey=` authenticates (the framework decodes the
// name) and used to land in the log in clear.
describe('logged request URLs', () => {
  let t: TestApp;
  let owner: TestKey;
  const logLines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp('sqlite', { appOptions: { logger: createLogger('trace', sink) } });
    owner = await t.createKey();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never carry the API key or a signature, whatever the spelling', async () => {
    const encoded = await t.request('GET', `/v1/usage?api%5Fkey=${owner.key}`);
    expect(encoded.status, encoded.text).toBe(200);
    const lower = await t.request('GET', `/v1/usage?api%5fkey=${encodeURIComponent(owner.key)}`);
    expect(lower.status, lower.text).toBe(200);
    await t.request('GET', `/v1/usage?API_KEY=${owner.key}`);
    await t.request('GET', `/v1/usage?api_key=${owner.key.replace('_', '%5F')}`);
    const signature = 'ab'.repeat(32);
    await t.request(
      'GET',
      `/v1/capture?url=x&project_id=prj_01J00000000000000000000000&expires=1&sig%6Eature=${signature}`,
    );
    const log = logLines.join('');
    expect(log).toContain('/v1/usage?api%5Fkey=[redacted]');
    expect(log).toContain('sig%6Eature=[redacted]');
    expect(log).not.toContain(owner.key);
    expect(log).not.toContain(owner.key.replace('_', '%5F'));
    expect(log).not.toContain(owner.key.slice(8));
    expect(log).not.toContain(signature);
  });
});
