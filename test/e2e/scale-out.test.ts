import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type TestS3Server } from '../storage/s3rver.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { verifyStandardWebhook, whsecOf } from '../support/standard-webhooks.ts';
import { freePort, POSTGRES_URL, uniqueName } from '../support/test-app.ts';
import { postgresUrlOf, REDIS_URL } from '../support/test-services.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');
const JOBS = 50;

interface Process {
  role: 'api' | 'worker';
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

// Issue 7: two API and two worker processes on PostgreSQL + Redis + S3 (s3rver); 50 async
// captures with webhooks across both APIs; one worker is killed with SIGKILL mid-run.
describe('scale-out: 2 API + 2 worker processes on PostgreSQL, Redis and S3', () => {
  const database = uniqueName('vt_e2e');
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-'));
  let s3: TestS3Server;
  let fixtures: RunningServer;
  let env: NodeJS.ProcessEnv;
  const processes: Process[] = [];
  const hooks: { headers: Record<string, string>; body: string; receivedAt: number }[] = [];

  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async function start(role: 'api' | 'worker', index: number): Promise<Process> {
    const port = await freePort();
    const dataDir = path.join(dataRoot, `${role}-${index}`);
    const child = spawn(BIN, ['serve', '--role', role], {
      env: { ...env, VITRINE_PORT: String(port), VITRINE_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('Stop: Ctrl+C')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`${role} exited ${code}: ${text}`)));
    });
    const proc = { role, url: `http://127.0.0.1:${port}`, child, exited };
    processes.push(proc);
    return proc;
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    s3 = await startS3rver();
    fixtures = await startFixtureServer();
    fixtures.route('/hook', (req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        hooks.push({
          headers: req.headers as Record<string, string>,
          body,
          receivedAt: Math.floor(Date.now() / 1000),
        });
        res.writeHead(200).end('ok');
      });
    });
    env = {
      ...process.env,
      DATABASE_URL: postgresUrlOf(database),
      REDIS_URL,
      VITRINE_REDIS_PREFIX: uniqueName('e2e'),
      VITRINE_STORAGE: 's3',
      VITRINE_S3_ENDPOINT: s3.endpoint,
      VITRINE_S3_BUCKET: s3.bucket,
      VITRINE_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      VITRINE_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      VITRINE_S3_FORCE_PATH_STYLE: 'true',
      VITRINE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      VITRINE_ALLOW_TARGETS: '127.0.0.2',
      VITRINE_LOG_LEVEL: 'warn',
      VITRINE_JOB_LEASE_MS: '6000',
      VITRINE_QUEUE_POLL_MS: '100',
      VITRINE_WORKER_CONCURRENCY: '2',
      VITRINE_BROWSER_CONCURRENCY: '2',
      // The test polls 50 jobs: far above a client's normal rate.
      VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
      VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000',
    };
    // Migrations run on the first start; start the APIs first, then the workers.
    await start('api', 1);
    await Promise.all([start('api', 2), start('worker', 1), start('worker', 2)]);
    // Four processes each start Chromium: on a loaded 2-core machine that took over 120 s once.
  }, 300_000);

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await fixtures?.close();
    await s3?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }, 60_000);

  it('completes every job once, delivers every webhook signed, and debits credits once per job', async () => {
    const key = (
      await run(BIN, ['admin', 'create-key', '--email', 'scale@example.com', '--credits', '200'], {
        env: { ...env, VITRINE_DATA_DIR: path.join(dataRoot, 'admin') },
      })
    ).stdout
      .trim()
      .split('\n')
      .pop()!;
    const [api1, api2] = processes.filter((p) => p.role === 'api') as [Process, Process];
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const project = await (
      await fetch(`${api1.url}/v1/projects`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'E2E' }),
      })
    ).json();
    const secret: string = project.signing_secret;

    const jobIds: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const api = i % 2 === 0 ? api1 : api2;
      const res = await fetch(`${api.url}/v1/capture`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          url: `${fixtures.origin}/capture/simple.html?n=${i}`,
          viewport: { width: 400, height: 300 },
          project_id: project.project.id,
          async: true,
          webhook_url: `${fixtures.origin}/hook`,
        }),
      });
      expect(res.status).toBe(202);
      jobIds.push((await res.json()).job_id);
    }

    // Kill one worker with SIGKILL once work is under way.
    const doomed = processes.find((p) => p.role === 'worker')!;
    const progress = new pg.Client({ connectionString: env.DATABASE_URL });
    await progress.connect();
    try {
      for (let i = 0; i < 300; i++) {
        const { rows } = await progress.query(
          "SELECT count(*)::int AS n FROM jobs WHERE status = 'completed'",
        );
        if (rows[0].n >= 8) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await progress.end();
    }
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBeNull();

    // Every job ends completed, readable from either API process.
    const jobs: Record<
      string,
      { status: string; result: { id: string; url: string } | null; webhook_status: string }
    > = {};
    for (let round = 0; round < 600 && Object.keys(jobs).length < JOBS; round++) {
      for (const [i, id] of jobIds.entries()) {
        if (jobs[id]) continue;
        const api = i % 2 === 0 ? api2 : api1;
        const res = await fetch(`${api.url}/v1/jobs/${id}`, { headers: auth });
        expect(res.status).toBe(200);
        const job = await res.json();
        if (job.status !== 'pending' && job.webhook_status !== 'pending') jobs[id] = job;
      }
      if (Object.keys(jobs).length < JOBS) await new Promise((r) => setTimeout(r, 300));
    }
    expect(Object.keys(jobs)).toHaveLength(JOBS);
    for (const job of Object.values(jobs)) {
      expect(job.status, JSON.stringify(job)).toBe('completed');
      expect(job.webhook_status).toBe('delivered');
    }
    // Any process serves any image (stored in S3).
    const sample = Object.values(jobs)[0]!.result!;
    const image = await fetch(`${api2.url}/cdn/r/${sample.id}.png`);
    expect(image.status).toBe(200);
    await image.arrayBuffer();

    // Exactly one capture and one committed debit per job; every webhook validly signed.
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const captures = await client.query('SELECT count(*)::int AS n FROM captures');
      expect(captures.rows[0].n).toBe(JOBS);
      const ledger = await client.query(
        "SELECT state, count(*)::int AS n, sum(amount)::int AS credits FROM credit_ledger WHERE kind = 'capture' GROUP BY state",
      );
      expect(ledger.rows).toEqual([{ state: 'committed', n: JOBS, credits: JOBS }]);
      const user = await client.query(
        "SELECT credits_remaining FROM users WHERE email = 'scale@example.com'",
      );
      expect(user.rows[0].credits_remaining).toBe(200 - JOBS);
    } finally {
      await client.end();
    }
    for (const id of jobIds) {
      const received = hooks.filter((h) => JSON.parse(h.body).job_id === id);
      expect(received.length, id).toBeGreaterThanOrEqual(1);
      for (const hook of received) {
        expect(verifyStandardWebhook(whsecOf(secret), hook, hook.receivedAt)).toBe(true);
        expect(JSON.parse(hook.body)).toMatchObject({ job_id: id, status: 'completed' });
      }
    }
  }, 300_000);
});
