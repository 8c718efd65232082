import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { startTestApp, type TestApp } from '../test/support/test-app.ts';
import { VITRINE_CHROMIUM_PATH } from './baselines.ts';

/**
 * A bench service's setting: the bench measures captures, not the per-key limit (120 a minute
 * by default), which back-to-back captures exceed.
 */
export const UNLIMITED_CAPTURES = { VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000' } as const;

/** What the service logged about one request: its own time and, for fresh renders, its phases. */
export interface ServerSide {
  responseTimeMs?: number;
  phasesMs?: Record<string, number>;
}

export interface VitrineClient {
  test: TestApp;
  /** The bench account's API key. */
  key: string;
  /** Whether the running service documents this path in /v1/openapi.json. */
  hasRoute(path: string): Promise<boolean>;
  /** POST a JSON body; resolves with the parsed answer, rejects on any status but 2xx. */
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  /** POST and wait until the service has logged the request, to read its own timings. */
  postTraced(path: string, body: unknown): Promise<{ body: Record<string, unknown>; server: ServerSide }>;
  close(): Promise<void>;
}

/**
 * Vitrine in this process, as the test helpers start it (temp data dir, SQLite, a random
 * loopback port, fixture host allowed), with a logger that keeps the service's own timings:
 * Fastify's `responseTime` per request and the render phases (`render finished`).
 */
export async function startVitrine(env: Record<string, string> = {}): Promise<VitrineClient> {
  const completed: ServerSide[] = [];
  let pendingPhases: Record<string, number> | undefined;
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        const entry = JSON.parse(line) as { msg?: string; responseTime?: number; phases_ms?: never };
        if (entry.msg === 'render finished') pendingPhases = entry.phases_ms;
        if (entry.msg === 'request completed') {
          completed.push({ responseTimeMs: entry.responseTime, phasesMs: pendingPhases });
          pendingPhases = undefined;
        }
      },
    },
  );
  const test = await startTestApp('sqlite', {
    env: {
      VITRINE_ALLOW_TARGETS: '127.0.0.2',
      VITRINE_CHROMIUM_PATH,
      ...UNLIMITED_CAPTURES,
      ...env,
    },
    appOptions: { logger: logger as unknown as FastifyBaseLogger },
  });
  const { key } = await test.createKey({ credits: 1_000_000 });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(test.baseUrl + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  let openapi: { paths?: Record<string, Record<string, unknown>> } | undefined;
  return {
    test,
    key,
    async hasRoute(path) {
      openapi ??= (await (await fetch(`${test.baseUrl}/v1/openapi.json`)).json()) as typeof openapi;
      return Boolean(openapi?.paths?.[path]?.post);
    },
    post,
    async postTraced(path, body) {
      const before = completed.length;
      const answer = await post(path, body);
      for (let i = 0; i < 100 && completed.length === before; i += 1)
        await new Promise((r) => setTimeout(r, 1));
      return { body: answer, server: completed[completed.length - 1] ?? {} };
    },
    close: () => test.close(),
  };
}
