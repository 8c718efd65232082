import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../../packages/server/src/auth/authenticate.ts';
import { createCredits } from '../../packages/server/src/billing/credits.ts';
import {
  type PageCapture,
  plainPageOptions,
} from '../../packages/server/src/browser/page-capture-options.ts';
import type { ResolvedCapture } from '../../packages/server/src/captures/resolved-capture.ts';
import { createCaptureRunner } from '../../packages/server/src/captures/run-capture.ts';
import { systemClock } from '../../packages/server/src/clock.ts';
import { createCapturesRepository } from '../../packages/server/src/db/captures-repository.ts';
import { createCreditLedgerRepository } from '../../packages/server/src/db/credit-ledger-repository.ts';
import type { Db } from '../../packages/server/src/db/tables.ts';
import type { RunQueuedCapture } from '../../packages/server/src/jobs/job-worker.ts';

/** A user with a credit balance, inserted directly. */
export async function insertUser(db: Db, credits: number): Promise<Principal> {
  const id = `usr_${crypto.randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id.toLowerCase()}@example.com`,
      password_hash: null,
      credits_remaining: credits,
      credits_monthly: credits,
      credits_period: now.slice(0, 7),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { userId: id, keyId: null, mode: 'live', scopes: [] };
}

export async function creditsOf(db: Db, userId: string) {
  const user = await db
    .selectFrom('users')
    .select('credits_remaining')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const ledger = await db
    .selectFrom('credit_ledger')
    .select(['state', 'amount'])
    .where('user_id', '=', userId)
    .execute();
  return { remaining: user.credits_remaining, ledger: ledger.map((e) => `${e.state}:${e.amount}`).sort() };
}

/**
 * The real render service (credits, capture records, idempotent capture id) over fake stages:
 * `capture` is the hook tests use to fail, hang or count renders.
 */
export function renderKit(db: Db, capture: (signal: AbortSignal) => Promise<void> = async () => undefined) {
  const credits = createCredits({ ledger: createCreditLedgerRepository(db), clock: systemClock });
  let renders = 0;
  const service = createCaptureRunner({
    captures: createCapturesRepository(db),
    credits,
    clock: systemClock,
    publicUrl: 'http://vitrine.test',
    deadlineMs: 30_000,
    videoFrameMs: 200,
    stages: {
      capture: async (_options, signal): Promise<PageCapture> => {
        await capture(signal);
        renders++;
        return {
          png: Buffer.from('png'),
          width: 4,
          height: 3,
          warnings: [],
          timings: {},
          finalUrl: 'https://example.com/',
          title: 'Fixture',
        };
      },
      compose: async () => {
        throw new Error('These jobs are unstyled: nothing to compose');
      },
      encode: async () => ({
        data: Buffer.from('img'),
        width: 4,
        height: 3,
        format: 'png',
        contentType: 'image/png',
      }),
      store: async () => undefined,
      blobKey: (id, format) => `r/${id}.${format}`,
    },
  });
  const render: RunQueuedCapture = async (input, signal) => (await service.run(input, signal)).result;
  return { credits, render, failed: service.refundQueued, renders: () => renders };
}

/** A resolved unstyled capture of `url`, never cached (the job payload the tests queue). */
export function captureOf(url: string): ResolvedCapture {
  return {
    version: 1,
    kind: 'raw',
    projectId: null,
    page: plainPageOptions(url, { viewport: { width: 1440, height: 900 } }),
    output: { format: 'png', width: null, height: null, quality: null, dpr: 1 },
    style: null,
    cost: 1,
    cacheTtlSeconds: 0,
    showResolvedParams: false,
    warnings: [],
  };
}

export const CAPTURE: ResolvedCapture = captureOf('https://example.com/');

export { verifyStandardWebhook } from '../support/standard-webhooks.ts';

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.2 answering with the statuses given, then 200. */
export async function startReceiver(statuses: number[] = [], port = 0) {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1/' } : {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.2', resolve));
  return {
    received,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
