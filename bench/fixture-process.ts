import { type ChildProcess, fork } from 'node:child_process';
import type { RunningServer } from '../test/support/fixture-server.ts';

/**
 * The bench's fixture host in a Node process of its own: the pages a capture loads come from
 * "the world", not from the process that captures them. Started in the bench's own process, the
 * fixture server shared one event loop with the in-process service (its HTTP, its egress proxy,
 * its DevTools traffic) and with bare-playwright's driver, and every file it sent waited for them.
 *
 * `hits` is a snapshot kept up to date by the child's messages (batch.ts counts page loads).
 */
export async function startFixtureProcess(): Promise<RunningServer> {
  const child: ChildProcess = fork(import.meta.filename, ['--fixture-child'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const hits: string[] = [];
  const ready = await new Promise<{ host: string; port: number; origin: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fixture host exited (${code})`)));
    child.on('message', (m: { ready?: { host: string; port: number; origin: string }; hit?: string }) => {
      if (m.ready) resolve(m.ready);
      else if (m.hit !== undefined) hits.push(m.hit);
    });
  });
  return {
    ...ready,
    hits,
    route() {
      throw new Error('the bench fixture host has no programmable routes');
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.argv[2] === '--fixture-child') {
  const { startFixtureServer } = await import('../test/support/fixture-server.ts');
  // Hits reach the parent after a round trip: batch.ts reads them once a batch is done.
  const server = await startFixtureServer({ onHit: (hit) => process.send?.({ hit }) });
  process.send?.({ ready: { host: server.host, port: server.port, origin: server.origin } });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
