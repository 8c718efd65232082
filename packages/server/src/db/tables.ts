import type { Generated, Kysely } from 'kysely';

/**
 * Column conventions shared by both engines: timestamps are ISO-8601 UTC text with milliseconds
 * (sortable, and what the API returns); booleans are integers 0/1; JSON is text.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  credits_remaining: number;
  credits_monthly: number;
  /** UTC month (YYYY-MM) the balance belongs to; a new month resets it to credits_monthly. */
  credits_period: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  key_hash: string;
  /** The first characters of the key, safe to show in listings. */
  display_prefix: string;
  mode: 'live' | 'test';
  /** JSON array of scope names; empty means full access. */
  scopes: string;
  label: string;
  /** Who made it: an operator, the device login, the account page, or POST /v1/keys. */
  created_by: 'admin' | 'device_login' | 'web' | 'api';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  domain: string | null;
  brand: string | null;
  brand_status: string;
  brand_error: string | null;
  is_default: number;
  /** Sealed (encrypted) signing secret; see secrets/sealed-box.ts. */
  signing_secret_sealed: string;
  previous_signing_secret_sealed: string | null;
  previous_signing_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  /** What was bought: `capture`, `raw`, ... */
  kind: string;
  amount: number;
  state: 'reserved' | 'committed' | 'refunded';
  /** Counted as a render in usage (cached results count, at 0 credits). */
  created_at: string;
  settled_at: string | null;
}

export interface CapturesTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  project_id: string | null;
  /** `raw` or `capture`. */
  kind: string;
  /** SHA-256 of the effective request; equal requests of one account share a result. */
  cache_key: string;
  blob_key: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  duration_ms: number;
  credits_used: number;
  /** JSON arrays / objects of the capture result. */
  warnings: string;
  resolved_params: string;
  ai_decisions: string;
  element_resolved: string;
  /** The page's metadata (JSON) of a capture made with `metadata: true`; null otherwise. */
  metadata: string | null;
  /** JSON of a video's figures (fps, frames, duration, codec, poster format); null for a still. */
  video: string | null;
  created_at: string;
  /** Until when an equal request may reuse this result (created_at + cache_ttl). */
  cache_expires_at: string;
}

/** One job of the embedded queue (queue/embedded-job-queue.ts); the key is (queue, id). */
export interface QueueJobsTable {
  queue: string;
  id: string;
  /** JSON of the job payload. */
  payload: string;
  status: 'waiting' | 'active' | 'completed' | 'failed';
  /** Deliveries so far, the current one included. */
  attempts: number;
  max_attempts: number;
  /** Not delivered before this time (retry backoff). */
  run_at: string;
  /** Random per delivery; only its holder may renew, complete or fail the job. */
  lease_token: string | null;
  /** An active job whose lease expired is delivered again (its worker is presumed dead). */
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** An async capture (docs/api-decisions.md section 5). */
export interface JobsTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  api_key_mode: 'live' | 'test';
  project_id: string | null;
  status: 'pending' | 'completed' | 'failed';
  /** The job payload: JSON of the ResolvedCapture (captures/resolved-capture.ts), rendered as is. */
  request: string;
  /** JSON of the capture result once completed. */
  result: string | null;
  error: string | null;
  webhook_url: string | null;
  webhook_status: 'pending' | 'delivered' | 'failed' | null;
  /** The credit reservation made at enqueue; settled once by the worker. */
  reservation_id: string;
  reservation_amount: number;
  /** Capture id fixed at enqueue, so a re-delivered job finds the result of a crashed attempt. */
  capture_id: string;
  created_at: string;
  completed_at: string | null;
  /** Issue 39: the batch this job renders for (null for a lone async capture), its item and look. */
  batch_id: string | null;
  batch_index: number | null;
  batch_look: string | null;
  /** The look's position in the batch's looks (0 for the first look, or for a batch without looks). */
  batch_look_rank: number | null;
  /** 1 while a batch's job waits for its window (not in the capture queue yet); else 0. */
  held: Generated<number>;
}

/** A `POST /v1/batch` (issue 39); its renders are rows of `jobs`. */
export interface BatchesTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  project_id: string | null;
  idempotency_key: string | null;
  /** SHA-256 of the request body, to tell a retry from another batch under the same key. */
  request_hash: string;
  status: 'running' | 'completed';
  /** JSON array of the look names, in order (empty: no looks). */
  looks: string;
  total: number;
  credits_reserved: number;
  webhook_url: string | null;
  created_at: string;
  completed_at: string | null;
}

/** The webhook outbox: one event per finished job with a webhook_url; `id` is `webhook-id`. */
export interface WebhookDeliveriesTable {
  id: string;
  job_id: string;
  user_id: string;
  project_id: string | null;
  url: string;
  /** The exact JSON body, fixed when the event is created so every attempt sends the same bytes. */
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A device login code (docs/api-decisions.md section 6); the poll token is stored as its SHA-256 only. */
export interface DeviceCodesTable {
  id: string;
  /** The 8 letters of the user code, without the dash. */
  user_code: string;
  poll_token_hash: string;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  /** JSON array of the scopes asked for; empty means full access. */
  scopes: string;
  client_name: string | null;
  client_ip: string;
  user_agent: string | null;
  /** Minimum seconds between polls; grows by 5 with every poll that comes too soon. */
  interval_seconds: number;
  created_at: string;
  expires_at: string;
  last_polled_at: string | null;
  /** The user who approved or denied it. */
  decided_by: string | null;
  decided_at: string | null;
  /** The key issued when the approved code was redeemed. */
  api_key_id: string | null;
}

/** A signed-in browser session of the web pages; stored as the SHA-256 of its id, so it can be revoked. */
export interface WebSessionsTable {
  id_hash: string;
  user_id: string;
  ip: string;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
}

/** An auth profile (docs/api-decisions.md section 8); cookies and storage only in `state_sealed`. */
export interface AuthProfilesTable {
  id: string;
  user_id: string;
  project_id: string | null;
  name: string;
  domain: string;
  /** Sealed JSON of the cookies and origins (authprofiles/profile-state.ts). */
  state_sealed: string;
  /** Grows with every change of the state or domain; part of capture cache keys. */
  version: number;
  cookie_count: number;
  /** When the last cookie expires; null when a cookie never expires (or there are none). */
  cookies_expire_at: string | null;
  /** 1 or 0 after a test, null before any test of the current state. */
  last_test_ok: number | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  queue_jobs: QueueJobsTable;
  jobs: JobsTable;
  batches: BatchesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  captures: CapturesTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  credit_ledger: CreditLedgerTable;
  device_codes: DeviceCodesTable;
  web_sessions: WebSessionsTable;
  auth_profiles: AuthProfilesTable;
  brand_cache: BrandCacheTable;
}

/** An extracted brand per account and domain (cached 7 days). */
export interface BrandCacheTable {
  user_id: string;
  domain: string;
  /** The contract's brand object as JSON. */
  brand: string;
  extracted_at: string;
}

export type Db = Kysely<Database>;
