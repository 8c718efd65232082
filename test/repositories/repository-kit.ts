import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { ApiKeyRow } from '../../packages/server/src/db/api-keys-repository.ts';
import type { CaptureRow } from '../../packages/server/src/db/captures-repository.ts';
import type { DeviceCodeRow } from '../../packages/server/src/db/device-codes-repository.ts';
import type { JobRow } from '../../packages/server/src/db/jobs-repository.ts';
import type { OpenedDatabase } from '../../packages/server/src/db/open-database.ts';
import type { ProjectRow } from '../../packages/server/src/db/projects-repository.ts';
import type { Db } from '../../packages/server/src/db/tables.ts';
import type { UserRow } from '../../packages/server/src/db/users-repository.ts';
import type { Engine } from '../support/test-app.ts';
import { type TestDatabase, testDatabase } from '../support/test-database.ts';

/**
 * The repository contract suites (test/repositories/*.test.ts) run each repository on SQLite and
 * PostgreSQL against a migrated database of their own; the rows here are complete and valid, and
 * each test overrides what it is about.
 */
export function useRepositoryDatabase(engine: Engine): { db: () => Db } {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  beforeAll(async () => {
    database = testDatabase(engine);
    opened = await database.open();
  });
  afterAll(async () => {
    await opened?.close();
    await database?.destroy();
  });
  return { db: () => opened.db };
}

export const id = (prefix: string) =>
  `${prefix}_${crypto.randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;

/** An ISO time `seconds` from a fixed base, so ordering is explicit and engine-independent. */
export const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();

export function userRow(overrides: Partial<UserRow> = {}): UserRow {
  const userId = overrides.id ?? id('usr');
  return {
    id: userId,
    email: `${userId.toLowerCase()}@example.com`,
    password_hash: null,
    credits_remaining: 10,
    credits_monthly: 10,
    credits_period: '2026-01',
    created_at: at(0),
    updated_at: at(0),
    ...overrides,
  };
}

export async function insertUser(db: Db, overrides: Partial<UserRow> = {}): Promise<UserRow> {
  const row = userRow(overrides);
  await db.insertInto('users').values(row).execute();
  return row;
}

export function apiKeyRow(userId: string, overrides: Partial<ApiKeyRow> = {}): ApiKeyRow {
  return {
    id: id('key'),
    user_id: userId,
    key_hash: crypto.randomBytes(32).toString('hex'),
    display_prefix: 'vk_live_abcd',
    mode: 'live',
    scopes: '[]',
    label: 'test',
    created_by: 'admin',
    created_at: at(0),
    last_used_at: null,
    revoked_at: null,
    ...overrides,
  };
}

export function projectRow(userId: string, overrides: Partial<ProjectRow> = {}): ProjectRow {
  return {
    id: id('prj'),
    user_id: userId,
    name: 'Project',
    domain: null,
    brand: null,
    brand_status: 'none',
    brand_error: null,
    is_default: 0,
    signing_secret_sealed: 'sealed',
    previous_signing_secret_sealed: null,
    previous_signing_secret_expires_at: null,
    created_at: at(0),
    updated_at: at(0),
    ...overrides,
  };
}

export function captureRow(userId: string, overrides: Partial<CaptureRow> = {}): CaptureRow {
  const captureId = overrides.id ?? id('cap');
  return {
    id: captureId,
    user_id: userId,
    api_key_id: null,
    project_id: null,
    kind: 'capture',
    cache_key: 'k1',
    blob_key: `r/${captureId}.png`,
    format: 'png',
    width: 4,
    height: 3,
    bytes: 12,
    duration_ms: 5,
    credits_used: 1,
    warnings: '[]',
    resolved_params: '{}',
    ai_decisions: '[]',
    element_resolved: 'null',
    metadata: null,
    video: null,
    created_at: at(0),
    cache_expires_at: at(3600),
    ...overrides,
  };
}

export function jobRow(userId: string, overrides: Partial<JobRow> = {}): JobRow {
  return {
    id: id('job'),
    user_id: userId,
    api_key_id: null,
    api_key_mode: 'live',
    project_id: null,
    status: 'pending',
    request: '{}',
    result: null,
    error: null,
    webhook_url: null,
    webhook_status: null,
    reservation_id: id('res'),
    reservation_amount: 1,
    capture_id: id('cap'),
    created_at: at(0),
    completed_at: null,
    batch_id: null,
    batch_index: null,
    batch_look: null,
    batch_look_rank: null,
    held: 0,
    ...overrides,
  };
}

export function deviceCodeRow(overrides: Partial<DeviceCodeRow> = {}): DeviceCodeRow {
  return {
    id: id('dev'),
    user_code: `${crypto.randomBytes(2).toString('hex').toUpperCase()}-${crypto.randomBytes(2).toString('hex').toUpperCase()}`,
    poll_token_hash: crypto.randomBytes(32).toString('hex'),
    status: 'pending',
    scopes: '[]',
    client_name: null,
    client_ip: '127.0.0.1',
    user_agent: null,
    interval_seconds: 5,
    created_at: at(0),
    expires_at: at(900),
    last_polled_at: null,
    decided_by: null,
    decided_at: null,
    api_key_id: null,
    ...overrides,
  };
}
