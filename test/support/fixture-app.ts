import { afterAll, beforeAll } from 'vitest';
import type { AppOptions } from '../../packages/server/src/app.ts';
import { FIXTURE_HOST, type RunningServer, startFixtureServer } from './fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from './test-app.ts';

/** A test app on SQLite allowed to reach the fixture pages, the fixture server, and one key. */
export interface FixtureApp {
  t: TestApp;
  fixtures: RunningServer;
  key: TestKey;
}

/**
 * The usual preamble of an HTTP test with real captures, for the enclosing describe block:
 * started in beforeAll (fixture server, app with `env` on top of VITRINE_ALLOW_TARGETS, a key
 * with `credits`), closed in afterAll. The fields are set once beforeAll has run.
 */
export function useFixtureApp(options: {
  env?: Record<string, string>;
  credits: number;
  appOptions?: AppOptions;
}): FixtureApp {
  const app = {} as FixtureApp;
  beforeAll(async () => {
    app.fixtures = await startFixtureServer();
    app.t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: FIXTURE_HOST, ...options.env },
      ...(options.appOptions ? { appOptions: options.appOptions } : {}),
    });
    app.key = await app.t.createKey({ credits: options.credits });
  });
  afterAll(async () => {
    await app.t?.close();
    await app.fixtures?.close();
  });
  return app;
}
