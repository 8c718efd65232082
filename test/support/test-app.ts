import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type App, type AppOptions, createApp } from '../../packages/server/src/app.ts';
import type { ClosedStep } from '../../packages/server/src/close-all.ts';
import { type Config, loadConfig } from '../../packages/server/src/config/load-config.ts';
import { POSTGRES_URL } from './test-services.ts';

export type Engine = 'sqlite' | 'postgres';
export const ENGINES: Engine[] = ['sqlite', 'postgres'];
export { POSTGRES_URL } from './test-services.ts';

export interface TestApp {
  app: App;
  /** The PostgreSQL schema this app's tables live in (postgres engine only). */
  schema: string | undefined;
  config: Config;
  baseUrl: string;
  /** A fresh user with a key; scopes empty = full access. */
  createKey(options?: {
    scopes?: string[];
    test?: boolean;
    credits?: number;
    email?: string;
  }): Promise<TestKey>;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  /** The payload stored with a queued job (what a worker will run), as the jobs table holds it. */
  queuedPayload(jobId: string): Promise<string>;
  /** Closes the app (its data dir and schema too); `onClosed` hears of each step as the app's does. */
  close(onClosed?: ClosedStep): Promise<void>;
}

export interface TestKey {
  key: string;
  keyId: string;
  userId: string;
  email: string;
}

export interface RequestOptions {
  key?: string;
  json?: unknown;
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  json: any;
}

/** A unique lowercase name for a PostgreSQL schema or a temp dir. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
}

export async function dropPostgresSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A free loopback port, so the configured public URL is the real one. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The configuration a test server runs with: temp data dir, a given port, quiet log. */
export function testConfig(
  engine: Engine,
  env: Record<string, string> = {},
  port = 0,
): { config: Config; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-test-'));
  const config = loadConfig({
    VITRINE_DATA_DIR: dataDir,
    VITRINE_PORT: String(port),
    VITRINE_LOG_LEVEL: 'silent',
    VITRINE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
    ...(engine === 'postgres' ? { DATABASE_URL: POSTGRES_URL } : {}),
    ...env,
  });
  return { config, dataDir };
}

/**
 * An app listening on a free loopback port. The port is free when `freePort` returns it, but
 * the kernel may give it to an outgoing connection of another test before the app listens
 * (EADDRINUSE, seen in a full run): then the app is built again on another port.
 */
async function listeningApp(
  engine: Engine,
  options: { env?: Record<string, string>; appOptions?: AppOptions },
  schema: string | undefined,
): Promise<{ app: App; config: Config; dataDir: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const { config, dataDir } = testConfig(engine, options.env, await freePort());
    const app = await createApp(config, { ...options.appOptions, databaseSchema: schema });
    try {
      await app.http.listen({ host: '127.0.0.1', port: config.server.port });
      return { app, config, dataDir };
    } catch (error) {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

/** Starts a real server on a random loopback port, on the chosen engine. */
export async function startTestApp(
  engine: Engine,
  options: {
    env?: Record<string, string>;
    appOptions?: AppOptions;
    /** Join another test app's PostgreSQL schema (a second process on the same data); not dropped on close. */
    sharedSchema?: string;
  } = {},
): Promise<TestApp> {
  const schema = options.sharedSchema ?? (engine === 'postgres' ? uniqueName('t') : undefined);
  const ownsSchema = options.sharedSchema === undefined;
  const { app, config, dataDir } = await listeningApp(engine, options, schema);
  const baseUrl = config.server.publicUrl;

  return {
    app,
    schema,
    config,
    baseUrl,
    async createKey({ scopes = [], test = false, credits, email } = {}) {
      const accounts = app.services.accounts;
      const user = await accounts.findOrCreateUser(email ?? `${uniqueName('user')}@example.com`);
      if (credits !== undefined) await accounts.setCredits(user.email, credits, credits);
      const { key, row } = await accounts.issueKey(user, {
        mode: test ? 'test' : 'live',
        scopes: scopes as never,
        label: 'test',
        createdBy: 'admin',
      });
      return { key, keyId: row.id, userId: user.id, email: user.email };
    },
    async request(method, url, { key, json, body, headers = {} } = {}) {
      const init: RequestInit = {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(json !== undefined ? { body: JSON.stringify(json) } : body !== undefined ? { body } : {}),
      };
      const response = await fetch(baseUrl + url, { ...init, redirect: 'manual' });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, text, json: parsed };
    },
    async queuedPayload(jobId) {
      const row = await app.database.db
        .selectFrom('jobs')
        .select('request')
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      return row.request;
    },
    async close(onClosed?: ClosedStep) {
      const started = Date.now();
      const steps: string[] = [];
      const said = () => (steps.length ? steps.join(', ') : 'none');
      // A slow close is a graceful-shutdown bug worth seeing in the test log, with the step that
      // held it; a close still running after 30 s says which steps are done before a hook's
      // timeout cuts it off.
      const watchdog = setTimeout(
        () => process.stderr.write(`test app close still running after 30 s; steps done: ${said()}\n`),
        30_000,
      );
      try {
        await app.close((name, ms) => {
          steps.push(`${name} ${ms} ms`);
          onClosed?.(name, ms);
        });
      } finally {
        clearTimeout(watchdog);
      }
      if (Date.now() - started > 5000)
        process.stderr.write(`test app close took ${Date.now() - started} ms: ${said()}\n`);
      if (schema && ownsSchema) await dropPostgresSchema(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
