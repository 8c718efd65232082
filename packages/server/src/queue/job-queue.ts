/** One delivery of a job to a worker: valid while the lease holds. */
export interface JobLease<T> {
  id: string;
  payload: T;
  /** 1 on the first delivery; re-deliveries after a crash or a failure count up. */
  attempt: number;
  maxAttempts: number;
  /** Opaque proof of this delivery; a stale lease can no longer renew, complete or fail the job. */
  token: string;
}

/** What became of a failed delivery. `lost`: the lease had expired or the job was already settled. */
export type FailOutcome = 'retrying' | 'failed' | 'lost';

/**
 * A durable queue with at-least-once delivery: a job is delivered under a lease; the worker
 * renews the lease while it works and completes or fails the job; a lease that expires (the
 * worker died) makes the job deliverable again. Completion is idempotent: only the current
 * lease holder can settle a job, once. Handlers must therefore be idempotent themselves.
 */
export interface JobQueue<T> {
  readonly name: string;
  /** Adds a job; a job with the same id already queued (in any state) is left as it is. */
  enqueue(id: string, payload: T): Promise<void>;
  /** Takes the next due job under a fresh lease, or undefined when none is due. */
  take(): Promise<JobLease<T> | undefined>;
  /** Extends the lease by the lease duration; false when it was lost. */
  renew(lease: JobLease<T>): Promise<boolean>;
  /** Settles the job as done; false when the lease was lost (someone else owns the job now). */
  complete(lease: JobLease<T>): Promise<boolean>;
  /** Records a failure: retried after the backoff if `retry` and attempts remain, else failed. */
  fail(lease: JobLease<T>, reason: string, options: { retry: boolean }): Promise<FailOutcome>;
  /** Gives the job back at once without counting the attempt as a failure (graceful shutdown). */
  release(lease: JobLease<T>): Promise<void>;
  /** Resolves when work may be due: a wake-up from this process, or after `timeoutMs`. */
  waitForWork(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** Current state of a job (`missing` when unknown or removed); for tests and operations. */
  state(id: string): Promise<JobState>;
  close(): Promise<void>;
}

export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'missing';

/** Settings every adapter shares. */
export interface JobQueueSettings {
  /** How long a lease lasts without renewal. */
  leaseMs: number;
  /** Deliveries before a job fails for good. */
  maxAttempts: number;
  /** Delay before the retry that follows failed attempt number `attempt` (1-based). */
  backoffMs: (attempt: number) => number;
}
