import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * PostgreSQL and Redis instances of the test run's own: a fresh cluster (initdb into a temp dir,
 * trust authentication, a free loopback port) and a redis-server on a free port, both gone at
 * the end. The suite then depends on Debian's `postgresql` and `redis-server` packages being
 * installed (`make install` does that), not on a system cluster's configuration or state.
 */
export interface ThrowawayService {
  url: string;
  stop(): Promise<void>;
}

/** A service the fault suite (test/faults/) can take down and bring back on the same port. */
export interface RestartableService extends ThrowawayService {
  /** Stops the server process (PostgreSQL: a fast shutdown, its clients cut), keeping its data dir. */
  down(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  up(): Promise<void>;
}

const say = (message: string) => process.stderr.write(`==> ${message}\n`);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0] === undefined) {
    throw new Error(
      'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run `make install` as root',
    );
  }
  return path.join(root, majors[0], 'bin');
}

// util-linux puts runuser in /usr/sbin, which a non-login shell's PATH may not include.
const RUNUSER =
  ['/usr/sbin/runuser', '/sbin/runuser'].find((candidate) => fs.existsSync(candidate)) ?? 'runuser';

/**
 * initdb and the server refuse to run as root: as root, the cluster belongs to the `postgres`
 * user (created by Debian's package) and its commands run through runuser.
 */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return [RUNUSER, ['-u', 'postgres', '--', command, ...args]];
}

export async function startThrowawayPostgres(): Promise<RestartableService> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  const run = (command: string, args: string[]) => {
    const [file, argv] = asClusterOwner(path.join(bin, command), args);
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const port = await freePort();
  say(`Starting a throwaway PostgreSQL on 127.0.0.1:${port} (${dir})`);
  run('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  // Durability is pointless for a cluster deleted at the end; speed is not.
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-k ${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  let running = false;
  const start = async () => {
    if (running) return;
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '120',
      'start',
    ]);
    await waitForPort(port, 'PostgreSQL');
    running = true;
  };
  await start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'test']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    async down() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    up: start,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A redis-server on a free port. Without `persistence` it keeps nothing across a restart (its
 * queues come back empty); with it, an append-only file fsynced on every write in that directory.
 */
export async function startThrowawayRedis(
  options: { persistence?: string } = {},
): Promise<RestartableService> {
  const port = await freePort();
  say(`Starting a throwaway redis-server on 127.0.0.1:${port}`);
  const durability = options.persistence
    ? ['--dir', options.persistence, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const current = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...durability, '--daemonize', 'no'],
      { stdio: 'ignore' },
    );
    child = current;
    const failed = new Promise<never>((_, reject) => {
      current.once('error', (error) =>
        reject(new Error(`redis-server could not start (${error.message}): run \`make install\` as root`)),
      );
    });
    failed.catch(() => undefined); // only the race below listens; a later exit is not an error here
    await Promise.race([waitForPort(port, 'redis-server'), failed]);
  };
  const stop = async () => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGTERM');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, down: stop, up: start };
}
