import { HttpTransport, type SendOptions, type TransportOptions } from './http-transport.ts';
import { sleep } from './retry.ts';
import type {
  Account,
  ApiKey,
  AuthProfile,
  AuthProfileAnswer,
  AuthProfileRequest,
  AuthProfileTestResult,
  BackgroundList,
  BackgroundListQuery,
  BackgroundPack,
  BackgroundPacksQuery,
  BrandStatus,
  CaptureRequest,
  CaptureResult,
  CreatedKey,
  CreatedProject,
  CreateKeyRequest,
  CreateProjectRequest,
  DeviceCode,
  DeviceTokenResponse,
  Job,
  JobAccepted,
  Project,
  RawCaptureRequest,
  RotatedSigningSecret,
  UpdateProjectRequest,
  Usage,
} from './types.ts';
import { VitrineError } from './vitrine-error.ts';

export type VitrineOptions = TransportOptions;

/** Per call: an AbortSignal that cancels it (and any wait between its retries). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface WaitOptions extends CallOptions {
  /** Milliseconds between polls; default 1000. */
  intervalMs?: number;
  /** Give up after this many milliseconds (a VitrineError with code `timeout`); default 300 000. */
  timeoutMs?: number;
}

const id = (value: string) => encodeURIComponent(value);

/**
 * The Vitrine API, typed from its OpenAPI document. Failures are VitrineError; 429 and 503
 * answers are retried with backoff, honouring the server's `retry_after`.
 *
 *   const vitrine = new Vitrine({ baseUrl: 'http://localhost:3000', apiKey: process.env.VITRINE_API_KEY });
 *   const shot = await vitrine.capture({ url: 'https://example.com', device: 'macbook-pro-16' });
 */
export class Vitrine {
  readonly http: HttpTransport;

  constructor(options: VitrineOptions) {
    this.http = new HttpTransport(options);
  }

  private async call<T>(method: string, path: string, options: SendOptions = {}): Promise<T> {
    return (await this.http.send<T>(method, path, options)).body;
  }

  /** POST /v1/capture: the styled image's result, or with `async: true` the queued job. */
  capture(body: CaptureRequest & { async: true }, options?: CallOptions): Promise<JobAccepted>;
  capture(body: CaptureRequest & { async?: false }, options?: CallOptions): Promise<CaptureResult>;
  capture(body: CaptureRequest, options?: CallOptions): Promise<CaptureResult | JobAccepted>;
  capture(body: CaptureRequest, options: CallOptions = {}): Promise<CaptureResult | JobAccepted> {
    return this.call('POST', '/v1/capture', { body, signal: options.signal });
  }

  /** Queues a capture (`async: true`) and waits for its job: the result, or a VitrineError. */
  async captureAndWait(
    body: Omit<CaptureRequest, 'async'>,
    options: WaitOptions = {},
  ): Promise<CaptureResult> {
    const queued = await this.capture({ ...body, async: true }, options);
    const job = await this.jobs.wait(queued.job_id, options);
    if (job.status === 'completed' && job.result) return job.result;
    throw new VitrineError('capture_failed', job.error ?? 'The capture failed', {
      details: { job_id: job.id },
    });
  }

  /** POST /v1/raw: the page alone, without styling. */
  raw(body: RawCaptureRequest, options: CallOptions = {}): Promise<CaptureResult> {
    return this.call('POST', '/v1/raw', { body, signal: options.signal });
  }

  readonly jobs = {
    get: (jobId: string, options: CallOptions = {}): Promise<Job> =>
      this.call('GET', `/v1/jobs/${id(jobId)}`, { signal: options.signal }),
    /**
     * Polls a job until it is `completed` or `failed` (either is returned), every `intervalMs`,
     * for at most `timeoutMs`.
     */
    wait: async (jobId: string, options: WaitOptions = {}): Promise<Job> => {
      const deadline = Date.now() + (options.timeoutMs ?? 300_000);
      for (;;) {
        const job = await this.jobs.get(jobId, options);
        if (job.status !== 'pending') return job;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new VitrineError('timeout', `Job ${jobId} is still pending`, { details: { job_id: jobId } });
        }
        await sleep(Math.min(options.intervalMs ?? 1000, left), options.signal);
      }
    },
  };

  readonly projects = {
    list: async (options: CallOptions = {}): Promise<Project[]> =>
      (await this.call<{ projects: Project[] }>('GET', '/v1/projects', options)).projects,
    /** The project, and its signing secret (shown this once). */
    create: (body: CreateProjectRequest = {}, options: CallOptions = {}): Promise<CreatedProject> =>
      this.call('POST', '/v1/projects', { body, signal: options.signal }),
    get: async (projectId: string, options: CallOptions = {}): Promise<Project> =>
      (await this.call<{ project: Project }>('GET', `/v1/projects/${id(projectId)}`, options)).project,
    update: async (
      projectId: string,
      body: UpdateProjectRequest,
      options: CallOptions = {},
    ): Promise<Project> =>
      (
        await this.call<{ project: Project }>('PATCH', `/v1/projects/${id(projectId)}`, {
          body,
          signal: options.signal,
        })
      ).project,
    makeDefault: async (projectId: string, options: CallOptions = {}): Promise<void> => {
      await this.call('POST', `/v1/projects/${id(projectId)}/default`, options);
    },
    /** The default project, created as "Default project" if there is none. */
    ensureDefault: async (options: CallOptions = {}): Promise<Project> =>
      (await this.call<{ project: Project }>('POST', '/v1/projects/ensure-default', options)).project,
    brandStatus: (projectId: string, options: CallOptions = {}): Promise<BrandStatus> =>
      this.call('GET', `/v1/projects/${id(projectId)}/brand/status`, options),
    refreshBrand: async (projectId: string, options: CallOptions = {}): Promise<Project> =>
      (await this.call<{ project: Project }>('POST', `/v1/projects/${id(projectId)}/brand/refresh`, options))
        .project,
    rotateSigningSecret: (projectId: string, options: CallOptions = {}): Promise<RotatedSigningSecret> =>
      this.call('POST', `/v1/projects/${id(projectId)}/signing-secret/rotate`, options),
  };

  readonly keys = {
    list: async (options: CallOptions = {}): Promise<ApiKey[]> =>
      (await this.call<{ keys: ApiKey[] }>('GET', '/v1/keys', options)).keys,
    /** A new live key (its secret is in the answer, this once). */
    create: (body: CreateKeyRequest = {}, options: CallOptions = {}): Promise<CreatedKey> =>
      this.call('POST', '/v1/keys', { body, signal: options.signal }),
    revoke: async (keyId: string, options: CallOptions = {}): Promise<ApiKey> =>
      (await this.call<{ key: ApiKey }>('DELETE', `/v1/keys/${id(keyId)}`, options)).key,
  };

  readonly backgrounds = {
    list: (query: BackgroundListQuery = {}, options: CallOptions = {}): Promise<BackgroundList> =>
      this.call('GET', '/v1/backgrounds', { query, signal: options.signal }),
    packs: async (query: BackgroundPacksQuery = {}, options: CallOptions = {}): Promise<BackgroundPack[]> =>
      (
        await this.call<{ packs: BackgroundPack[] }>('GET', '/v1/backgrounds/packs', {
          query,
          signal: options.signal,
        })
      ).packs,
  };

  readonly authProfiles = {
    list: async (query: { project_id?: string } = {}, options: CallOptions = {}): Promise<AuthProfile[]> =>
      (
        await this.call<{ profiles: AuthProfile[] }>('GET', '/v1/auth-profiles', {
          query,
          signal: options.signal,
        })
      ).profiles,
    create: (body: AuthProfileRequest, options: CallOptions = {}): Promise<AuthProfileAnswer> =>
      this.call('POST', '/v1/auth-profiles', { body, signal: options.signal }),
    get: async (profileId: string, options: CallOptions = {}): Promise<AuthProfile> =>
      (await this.call<{ profile: AuthProfile }>('GET', `/v1/auth-profiles/${id(profileId)}`, options))
        .profile,
    update: (
      profileId: string,
      body: AuthProfileRequest,
      options: CallOptions = {},
    ): Promise<AuthProfileAnswer> =>
      this.call('PATCH', `/v1/auth-profiles/${id(profileId)}`, { body, signal: options.signal }),
    delete: async (profileId: string, options: CallOptions = {}): Promise<void> => {
      await this.call('DELETE', `/v1/auth-profiles/${id(profileId)}`, options);
    },
    /** Loads `url` with the profile: `ok` when it answered below 400 and a profile cookie was sent. */
    test: (profileId: string, url: string, options: CallOptions = {}): Promise<AuthProfileTestResult> =>
      this.call('POST', `/v1/auth-profiles/${id(profileId)}/test`, { body: { url }, signal: options.signal }),
  };

  readonly device = {
    /** Starts a device login: the user approves `user_code` at `verification_uri`. */
    code: (options: CallOptions = {}): Promise<DeviceCode> =>
      this.call('POST', '/v1/device/code', { body: {}, signal: options.signal }),
    token: (pollToken: string, options: CallOptions = {}): Promise<DeviceTokenResponse> =>
      this.call('POST', '/v1/device/token', { body: { poll_token: pollToken }, signal: options.signal }),
  };

  account(options: CallOptions = {}): Promise<Account> {
    return this.call('GET', '/v1/account', options);
  }

  usage(options: CallOptions = {}): Promise<Usage> {
    return this.call('GET', '/v1/usage', options);
  }
}
