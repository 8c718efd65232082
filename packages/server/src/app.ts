import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import serverPackage from '../package.json' with { type: 'json' };
import { createAiStep } from './ai/ai-step.ts';
import type { AiProvider } from './ai/ai-types.ts';
import { createBuiltinProvider } from './ai/builtin-provider.ts';
import { createOpenAiProvider } from './ai/openai-provider.ts';
import { createAccountKeys } from './auth/account-keys.ts';
import { type Accounts, createAccounts } from './auth/accounts.ts';
import { createAttemptLimiter } from './auth/attempt-limiter.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createDeviceLogin } from './auth/device-login.ts';
import { createSignedUrlVerifier } from './auth/signed-url.ts';
import { createWebSessions, sessionCookieSecret } from './auth/web-sessions.ts';
import { createWebSignIn, SIGN_IN_LIMITS } from './auth/web-sign-in.ts';
import { type AuthProfileService, createAuthProfileService } from './authprofiles/auth-profile-service.ts';
import { BACKGROUND_CATALOGUE } from './backgrounds/catalogue.ts';
import { createBackgroundRenderCache } from './backgrounds/render-cache.ts';
import { type Credits, createCredits } from './billing/credits.ts';
import { type BrandJobPayload, createBrandJobs } from './brand/brand-jobs.ts';
import { createLateBrandStarter } from './brand/brand-starter.ts';
import { extractBrand } from './brand/extract-brand.ts';
import { createBlockListsLoader } from './browser/block-lists.ts';
import { type BrowserPool, createBrowserPool } from './browser/browser-pool.ts';
import { probePageAuth } from './browser/page-auth.ts';
import { createPageCaptureCache } from './browser/page-capture-cache.ts';
import { type CaptureService, createCaptureService } from './captures/capture-service.ts';
import { deviceThumbnailLook } from './captures/resolve/resolve-capture.ts';
import { createCaptureRunner } from './captures/run-capture.ts';
import { type Clock, systemClock } from './clock.ts';
import { type ClosedStep, closeAll } from './close-all.ts';
import type { PageRunner } from './compose/index.ts';
import {
  browserRenderer,
  createBrowserTextDrawer,
  createComposeCache,
  createComposeStage,
  createDeviceThumbnails,
  createMotionStage,
  loadBrowserFonts,
  loadFontCatalogue,
  rasterRenderer,
  THUMBNAIL_BOX,
} from './compose/index.ts';
import type { Config } from './config/load-config.ts';
import { createApiKeysRepository } from './db/api-keys-repository.ts';
import { createAuthProfilesRepository } from './db/auth-profiles-repository.ts';
import { createBatchesRepository } from './db/batches-repository.ts';
import { createCapturesRepository } from './db/captures-repository.ts';
import { createCreditLedgerRepository } from './db/credit-ledger-repository.ts';
import { createDeviceCodesRepository } from './db/device-codes-repository.ts';
import { createJobsRepository } from './db/jobs-repository.ts';
import { type OpenedDatabase, openDatabase } from './db/open-database.ts';
import { createProjectsRepository } from './db/projects-repository.ts';
import { createUsersRepository } from './db/users-repository.ts';
import { createWebSessionsRepository } from './db/web-sessions-repository.ts';
import { configureSharp } from './encode/configure-sharp.ts';
import { decodeToRaw } from './encode/decode-image.ts';
import { previewImage } from './encode/preview-image.ts';
import { AppError } from './errors/app-error.ts';
import { dependencyOf } from './errors/dependency-outage.ts';
import { buildHttpServer, closeHttpServer } from './http/build-http-server.ts';
import { registerCdnRoutes } from './http/cdn-routes.ts';
import { createMetrics, type Metrics } from './http/metrics.ts';
import { createRateLimiter } from './http/rate-limiter.ts';
import { createRequestGuard } from './http/request-guard.ts';
import { accountHandlers } from './http/routes/account.ts';
import { authProfileHandlers } from './http/routes/auth-profiles.ts';
import { backgroundHandlers, registerBackgroundAssetRoutes } from './http/routes/backgrounds.ts';
import { batchHandlers } from './http/routes/batch.ts';
import { captureHandlers } from './http/routes/capture.ts';
import { deviceHandlers } from './http/routes/device.ts';
import { deviceCatalogueHandlers, registerDeviceThumbnailRoute } from './http/routes/devices-catalogue.ts';
import { fontHandlers } from './http/routes/fonts.ts';
import { projectHandlers, usageHandlers } from './http/routes/projects.ts';
import { rawCaptureHandlers } from './http/routes/raw-capture.ts';
import { createBatchService } from './jobs/batch-service.ts';
import {
  captureQueueSettings,
  createJobRuntime,
  type JobRuntime,
  webhookQueueSettings,
} from './jobs/job-runtime.ts';
import { type CaptureJobPayload, createJobService } from './jobs/job-service.ts';
import type { WebhookJobPayload } from './jobs/webhook-delivery.ts';
import { createWebhookSecretLookup } from './jobs/webhook-secret.ts';
import { loadOnce } from './load-once.ts';
import { createLogger } from './logger.ts';
import { checkFfmpeg, openVideoSink } from './motion/video-encoder.ts';
import { CHROMIUM_EGRESS_CONTEXT_OPTIONS, chromiumEgressLaunchOptions } from './netpolicy/chromium-egress.ts';
import type { Dialer } from './netpolicy/egress-dialer.ts';
import { type EgressProxy, startEgressProxy } from './netpolicy/egress-proxy.ts';
import { createGuardedFetch } from './netpolicy/guarded-fetch.ts';
import { createTargetPolicy, type Resolver } from './netpolicy/target-policy.ts';
import { createProjectService, type ProjectService } from './projects/project-service.ts';
import { createEmbeddedJobQueue } from './queue/embedded-job-queue.ts';
import type { JobQueue, JobQueueSettings } from './queue/job-queue.ts';
import { createBackgroundImages } from './render/background-images.ts';
import { createRenderStages } from './render/render-stages.ts';
import { loadMasterKey } from './secrets/master-key.ts';
import { createSealedBox } from './secrets/sealed-box.ts';
import type { BlobStore } from './storage/blob-store.ts';
import { createCachedBlobStore } from './storage/cached-blob-store.ts';
import { createLocalBlobStore } from './storage/local-blob-store.ts';
import { storageReadiness } from './storage/storage-readiness.ts';
import { registerBackgroundsPage } from './web/backgrounds-page.ts';
import { WRONG_CODE_LIMIT } from './web/device-pages.ts';
import { registerWebPages } from './web/register-web-pages.ts';

export const VERSION = serverPackage.version;

/** The AI provider: an OpenAI-compatible endpoint when configured, else the built-in engine. */
function aiProviderOf(config: Config): AiProvider {
  const { baseUrl, apiKey, model, timeoutMs } = config.ai;
  return baseUrl ? createOpenAiProvider({ baseUrl, apiKey, model, timeoutMs }) : createBuiltinProvider();
}

/** How long in-flight requests may run on when the service stops. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A shutdown step this slow is logged by name (what held the shutdown). */
const SLOW_CLOSE_STEP_MS = 5000;

export interface AppOptions {
  clock?: Clock;
  /** PostgreSQL schema to isolate this app's tables in (tests). */
  databaseSchema?: string;
  logger?: FastifyBaseLogger;
  /** DNS for the network policy; tests script it to simulate rebinding. */
  resolver?: Resolver;
  /**
   * How the egress proxy connects to a checked address; tests give one that refuses anything
   * outside loopback, so that no packet leaves the machine even if a guard were broken.
   */
  egressDialer?: Dialer;
  /**
   * `api` answers requests (sync captures included) but consumes no queued jobs; `worker`
   * consumes jobs and webhooks; `all` (default) does both. Every role serves the whole API, so
   * any process can answer any job's status and image.
   */
  role?: ProcessRole;
}

export type ProcessRole = 'api' | 'worker' | 'all';

export interface Services {
  accounts: Accounts;
  credits: Credits;
  projects: ProjectService;
  authProfiles: AuthProfileService;
}

export interface App {
  http: FastifyInstance;
  services: Services;
  /** The capture service every capture path goes through. */
  captures: CaptureService;
  database: OpenedDatabase;
  browserPool: BrowserPool;
  egressProxy: EgressProxy;
  jobs: JobRuntime;
  /** Launches Chromium and prepares the first page, so the first capture is fast. */
  warmUp(): Promise<void>;
  /** Closes everything in order; `onClosed` hears of each step and its time (slow ones are logged). */
  close(onClosed?: ClosedStep): Promise<void>;
}

/** Database, secrets, repositories and the account services: what the server and the admin commands use. */
export async function openCore(config: Config, options: AppOptions = {}) {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase(config.database, { schema: options.databaseSchema });
  const masterKey = loadMasterKey(config.secrets.secretKey, config.server.dataDir);
  const sealedBox = createSealedBox(masterKey);
  const brandStarter = createLateBrandStarter();
  const repositories = {
    users: createUsersRepository(database.db),
    apiKeys: createApiKeysRepository(database.db),
    projects: createProjectsRepository(database.db),
    captures: createCapturesRepository(database.db),
    creditLedger: createCreditLedgerRepository(database.db),
    authProfiles: createAuthProfilesRepository(database.db),
  };
  const services: Services = {
    accounts: createAccounts({
      users: repositories.users,
      apiKeys: repositories.apiKeys,
      clock,
      defaultMonthlyCredits: config.credits.defaultMonthlyCredits,
    }),
    credits: createCredits({ ledger: repositories.creditLedger, clock }),
    projects: createProjectService({
      projects: repositories.projects,
      sealedBox,
      clock,
      brand: brandStarter,
    }),
    authProfiles: createAuthProfileService({
      profiles: repositories.authProfiles,
      sealedBox,
      clock,
      findProject: (userId, id) => repositories.projects.find(userId, id),
    }),
  };
  return {
    brandStarter,
    clock,
    database,
    services,
    repositories,
    apiKeys: repositories.apiKeys,
    users: repositories.users,
    cookieSecret: sessionCookieSecret(masterKey),
    sealedBox,
  };
}

/*
 * The adapters of the scaled-out mode (S3, Redis, BullMQ; PostgreSQL in open-database.ts) are
 * imported only when configured: the embedded default never loads them, which keeps about 16 MB
 * of objects off the service's heap (each full collection marks every one) and about 0.3 s off
 * its start.
 */

async function openBlobStore(config: Config): Promise<{ blobStore: BlobStore; readiness: Readiness }> {
  const store =
    config.storage.kind === 'local'
      ? createLocalBlobStore({ root: config.storage.root })
      : (await import('./storage/s3-blob-store.ts')).createS3BlobStore(config.storage);
  const root = config.storage.kind === 'local' ? config.storage.root : '';
  // Render blobs never change once written, so a bounded memory cache in front is safe (CDN, P4).
  // Readiness asks the store itself, not the cache.
  return {
    blobStore: createCachedBlobStore(store),
    readiness: storageReadiness(config.storage.kind, store, root),
  };
}

type Readiness = ReturnType<typeof storageReadiness>;

async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}

/** Durable queues: BullMQ when Redis is configured (several processes), else the jobs table. */
async function queueOpener(config: Config, core: Awaited<ReturnType<typeof openCore>>) {
  const { redisUrl, redisPrefix: prefix } = config;
  if (redisUrl) {
    const { createBullmqJobQueue } = await import('./queue/bullmq-job-queue.ts');
    return <T>(name: string, settings: JobQueueSettings): JobQueue<T> =>
      createBullmqJobQueue<T>({ ...settings, redisUrl, prefix, name });
  }
  const { db, engine } = core.database;
  return <T>(name: string, settings: JobQueueSettings): JobQueue<T> =>
    createEmbeddedJobQueue<T>({ ...settings, db, engine, name, clock: core.clock });
}

/** Render errors already counted by the job's render wrapper (the consumer sees them again). */
const countedFailures = new WeakSet<object>();

/**
 * The dependency a failed job attempt is blamed on for /metrics: a driver or storage outage, or
 * the browser for `render_failed` (a browser that died, a page that crashed or hung).
 */
function failedDependency(error: unknown, operation: 'job' | 'webhook'): string | undefined {
  const dependency = dependencyOf(error);
  if (dependency) return dependency;
  // A delivery that failed for no reason of ours failed at the receiver.
  if (operation === 'webhook') return 'webhook_receiver';
  if (
    error instanceof AppError &&
    error.code === 'capture_failed' &&
    error.details?.reason === 'render_failed'
  ) {
    return 'browser';
  }
  return undefined;
}

function countJobFailure(metrics: Metrics, operation: 'job' | 'webhook', error: unknown): void {
  const dependency = failedDependency(error, operation);
  if (dependency) metrics.dependencyFailures.inc({ dependency, operation });
}

/**
 * The composition root: the only place that picks concrete adapters (SQLite or PostgreSQL,
 * memory or Redis, local disk or S3) and wires them into the HTTP server. No logic of its own.
 */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const core = await openCore(config, options);
  const { repositories, services } = core;
  const logger = options.logger ?? createLogger(config.server.logLevel);
  configureSharp();
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const metrics = createMetrics();
  const { blobStore, readiness: storageReady } = await openBlobStore(config);

  const policy = createTargetPolicy({ ...config.network, resolver: options.resolver });
  const guardedFetch = createGuardedFetch(policy);
  const egressProxy = await startEgressProxy({
    policy,
    logger: logger.child({ component: 'egress' }),
    ...(options.egressDialer ? { dial: options.egressDialer } : {}),
  });
  const egress = chromiumEgressLaunchOptions(egressProxy.url);
  const browserPool = createBrowserPool({
    executablePath: config.browser.chromiumPath,
    concurrency: config.browser.concurrency,
    queueLimit: config.browser.queueLimit,
    recycleAfter: config.browser.recycleAfter,
    captureTimeoutMs: config.browser.captureTimeoutMs,
    args: egress.args,
    proxy: egress.proxy,
    contextOptions: CHROMIUM_EGRESS_CONTEXT_OPTIONS,
  });

  // Rendered background variants live in the blob store, so every process shares them.
  const backgroundRenders = createBackgroundRenderCache({
    store: {
      get: (key) => blobStore.get(key),
      put: async (key, data, contentType) => void (await blobStore.put(key, data, { contentType })),
    },
  });
  const backgroundImages = createBackgroundImages({
    catalogue: BACKGROUND_CATALOGUE,
    renders: backgroundRenders,
    guardedFetch,
  });
  // The bundled fonts load with the first styled capture (satori with the first text): a
  // service that only takes raw captures holds neither (30-35 MB, docs/decisions.md).
  const fonts = loadOnce(loadFontCatalogue);
  const browserFonts = loadOnce(loadBrowserFonts);
  const composeCache = createComposeCache();
  const withComposePage: PageRunner = (fn) => browserPool.runCompose((lease) => fn(lease.page, lease.cdp));
  const rasterScenes = rasterRenderer({
    fonts,
    cache: composeCache,
    // Text in scripts satori cannot shape or order is drawn by Chromium (docs/decisions.md).
    browserText: createBrowserTextDrawer({
      withPage: withComposePage,
      fonts: browserFonts,
      cache: composeCache,
    }),
  });
  const compose = createComposeStage({
    fonts,
    decode: decodeToRaw,
    loadBackground: backgroundImages.load,
    renderers: {
      satori: rasterScenes,
      browser: browserRenderer({ withPage: withComposePage, fonts: browserFonts, cache: composeCache }),
    },
    scriptsInBrowser: true,
  });
  // Videos (motion): ffmpeg is checked now, so a missing one stops the start with its reason.
  const ffmpegPath = config.browser.ffmpegPath;
  if (ffmpegPath !== 'off') {
    const problem = await checkFfmpeg(ffmpegPath);
    if (problem) {
      throw new Error(
        `${problem}. Install Debian's ffmpeg (make install does, as root), set VITRINE_FFMPEG_PATH, or VITRINE_FFMPEG_PATH=off to run without videos`,
      );
    }
  }
  const animate =
    ffmpegPath === 'off'
      ? undefined
      : createMotionStage({
          fonts,
          decode: decodeToRaw,
          loadBackground: backgroundImages.load,
          renderer: rasterScenes,
          // Its temporary files live under the data directory, removed after each clip.
          openSink: (settings, signal) =>
            openVideoSink(
              { path: ffmpegPath, tempDir: path.join(config.server.dataDir, 'tmp') },
              settings,
              signal,
            ),
        });
  const aiProvider = aiProviderOf(config);
  const renderStages = createRenderStages({
    pool: browserPool,
    captureSettings: {
      navigationTimeoutMs: config.browser.navigationTimeoutMs,
      blockLists: createBlockListsLoader(),
      // The AI provider picks among the element resolver's best candidates (built-in: no opinion).
      chooseElement: (query, outline) => aiProvider.chooseElement(query, outline),
    },
    compose,
    decide: createAiStep({ provider: aiProvider, guardedFetch, blobStore }),
    blobStore,
    storeDependency: config.storage.kind === 'local' ? 'blob_store' : 'object_store',
    pageCache: createPageCaptureCache({
      maxBytes: config.browser.pageCacheMegabytes * 1024 * 1024,
      maxAgeMs: config.browser.pageCacheMaxAgeSeconds * 1000,
    }),
    ...(animate ? { animate } : {}),
  });
  const runner = createCaptureRunner({
    captures: repositories.captures,
    credits: services.credits,
    stages: renderStages,
    clock: core.clock,
    publicUrl: config.server.publicUrl,
    deadlineMs: config.browser.captureTimeoutMs,
    videoFrameMs: config.browser.videoFrameMs,
    authProfiles: services.authProfiles,
    onRendered: ({ kind, timings, durationMs }) => {
      for (const [phase, ms] of Object.entries(timings))
        metrics.renderPhases.observe({ kind, phase }, ms / 1000);
      logger.info({ render: kind, duration_ms: durationMs, phases_ms: timings }, 'render finished');
    },
  });

  const openQueue = await queueOpener(config, core);
  const captureQueue = openQueue<CaptureJobPayload>('captures', captureQueueSettings(config));
  const jobService = createJobService({
    jobs: createJobsRepository(core.database.db),
    queue: captureQueue,
    clock: core.clock,
    onEnqueueError: (error, id) => logger.warn({ err: error, context: `enqueue ${id}` }, 'job error'),
  });
  const captures = createCaptureService({
    targets: policy,
    findProject: (userId, id) => repositories.projects.find(userId, id),
    runner,
    queue: jobService,
    prices: config.prices,
    validateBackgroundReference: (ref) => backgroundImages.validateReference(ref),
    blobStore,
    authProfiles: services.authProfiles,
    motionAvailable: animate !== undefined,
  });
  const webhookQueue = openQueue<WebhookJobPayload>('webhooks', webhookQueueSettings(config));
  const batches = createBatchService({
    batches: createBatchesRepository(core.database.db),
    captures,
    targets: policy,
    queue: captureQueue,
    webhooks: webhookQueue,
    clock: core.clock,
    // Twice the job concurrency: the workers always find the next render queued, and a batch
    // still holds only that many places in the queue ahead of other accounts' jobs.
    window: 2 * config.queue.workerConcurrency,
    onError: (error, context) => logger.warn({ err: error, context }, 'job error'),
  });
  const jobs = createJobRuntime({
    config,
    db: core.database.db,
    clock: core.clock,
    service: jobService,
    batches,
    captureQueue,
    webhookQueue,
    render: (input, signal) =>
      captures.runQueued(input, signal).catch((error: unknown) => {
        countedFailures.add(error as object);
        countJobFailure(metrics, 'job', error);
        throw error;
      }),
    failed: captures.failQueued,
    guardedFetch,
    signingSecret: createWebhookSecretLookup({
      findProject: (id) => repositories.projects.findAnyById(id),
      findDefault: (userId) => repositories.projects.findDefault(userId),
      ensureDefault: (userId) => services.projects.ensureDefault(userId),
      validSigningSecrets: (row) => services.projects.validSigningSecrets(row),
    }),
    userAgent: `Vitrine/${VERSION}`,
    onError: (error, context) => logger.warn({ err: error, context }, 'job error'),
    onFailure: (queue, error, outcome) => {
      const operation = queue === 'webhooks' ? 'webhook' : 'job';
      if (!(typeof error === 'object' && error !== null && countedFailures.has(error))) {
        countJobFailure(metrics, operation, error);
      }
      const dependency = failedDependency(error, operation);
      if (outcome === 'retrying' && dependency) metrics.dependencyRetries.inc({ dependency, operation });
    },
    onSwept: (counts) => {
      for (const [queue, n] of Object.entries(counts)) if (n > 0) metrics.jobsRequeued.inc({ queue }, n);
      logger.warn({ counts }, 'sweep re-queued or settled jobs its queue had lost');
    },
  });

  // Device login, web sessions and key management (issue 11).
  const deviceLogin = createDeviceLogin({
    codes: createDeviceCodesRepository(core.database.db),
    accounts: services.accounts,
    clock: core.clock,
    publicUrl: config.server.publicUrl,
  });
  const accountKeys = createAccountKeys({
    accounts: services.accounts,
    apiKeys: repositories.apiKeys,
    clock: core.clock,
  });
  const webSessions = createWebSessions({
    sessions: createWebSessionsRepository(core.database.db),
    users: repositories.users,
    clock: core.clock,
  });
  const attemptLimiter = (name: string, limit: { failures: number; windowSeconds: number }) =>
    createAttemptLimiter({ name, ...limit, redis, prefix: config.redisPrefix });
  const http = await buildHttpServer({
    logger,
    bodyLimitBytes: config.limits.bodyLimitBytes,
    requestTimeoutMs: config.limits.requestTimeoutMs,
    trustProxy: config.server.trustProxy,
    publicUrl: config.server.publicUrl,
    version: VERSION,
    metrics,
    guard: createRequestGuard({
      authenticator: createAuthenticator({ apiKeys: repositories.apiKeys, clock: core.clock }),
      rateLimiter: createRateLimiter(
        {
          capturePerMinute: config.limits.rateLimitCapturePerMinute,
          defaultPerMinute: config.limits.rateLimitDefaultPerMinute,
          deviceCodePerMinute: config.limits.rateLimitDeviceCodePerMinute,
        },
        redis,
        config.redisPrefix,
      ),
      verifySignedUrl: createSignedUrlVerifier({
        findProject: (id) => repositories.projects.findAnyById(id),
        validSecrets: (project) => services.projects.validSigningSecrets(project),
        clock: core.clock,
        maxTtlSeconds: config.limits.signedUrlMaxTtlSeconds,
      }),
    }),
    handlers: {
      ...backgroundHandlers(BACKGROUND_CATALOGUE, config.server.publicUrl),
      ...fontHandlers(),
      ...deviceCatalogueHandlers(config.server.publicUrl),
      ...projectHandlers(services.projects),
      ...usageHandlers(services.credits),
      ...deviceHandlers(deviceLogin),
      ...accountHandlers({ accounts: services.accounts, keys: accountKeys, credits: services.credits }),
      ...rawCaptureHandlers({ captures }),
      ...captureHandlers({ captures, jobs: jobService }),
      ...batchHandlers({ batches }),
      ...authProfileHandlers({
        profiles: services.authProfiles,
        targets: policy,
        probe: (url, auth, signal) =>
          browserPool.run(
            (lease) => probePageAuth(lease, url, auth.state, config.browser.navigationTimeoutMs),
            { signal },
          ),
      }),
    },
    readinessChecks: {
      database: async () => {
        await sql`select 1`.execute(core.database.db);
      },
      ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
      [storageReady.name]: storageReady.check,
    },
  });
  registerCdnRoutes(http, { blobStore, preview: (encoded) => previewImage(encoded) });
  registerBackgroundAssetRoutes(http, { catalogue: BACKGROUND_CATALOGUE, cache: backgroundRenders });
  registerDeviceThumbnailRoute(
    http,
    createDeviceThumbnails({
      fonts,
      cache: composeCache,
      lookOf: (device, finish) => deviceThumbnailLook(device, finish, THUMBNAIL_BOX),
    }),
  );
  registerBackgroundsPage(http, { catalogue: BACKGROUND_CATALOGUE });
  await registerWebPages(http, {
    sessions: webSessions,
    cookieSecret: core.cookieSecret,
    secureCookies: config.server.publicUrl.startsWith('https:'),
    signIn: createWebSignIn({
      db: core.database.db,
      engine: core.database.engine,
      users: repositories.users,
      clock: core.clock,
      defaultMonthlyCredits: config.credits.defaultMonthlyCredits,
      failuresPerAccount: attemptLimiter('sign_in_account', SIGN_IN_LIMITS.perAccount),
      failuresPerIp: attemptLimiter('sign_in_ip', SIGN_IN_LIMITS.perIp),
    }),
    deviceLogin,
    wrongCodes: attemptLimiter('device_code_entry', WRONG_CODE_LIMIT),
    clock: core.clock,
    keys: accountKeys,
    credits: services.credits,
    projects: services.projects,
    authProfiles: services.authProfiles,
    playground: {
      captures,
      projects: services.projects,
      signingSecret: async (userId, projectId) => {
        const row = await repositories.projects.find(userId, projectId);
        return row ? services.projects.validSigningSecrets(row)[0] : undefined;
      },
      publicUrl: config.server.publicUrl,
      signedUrlMaxTtlSeconds: config.limits.signedUrlMaxTtlSeconds,
      clock: core.clock,
    },
  });
  await jobs.start({ consume: (options.role ?? 'all') !== 'api' });
  // Brand extraction (issue 13): jobs on the same queue engine, run by the capture engine.
  const brandJobs = createBrandJobs({
    db: core.database.db,
    queue: openQueue<BrandJobPayload>('brands', captureQueueSettings(config)),
    clock: core.clock,
    concurrency: 1,
    pollIntervalMs: config.queue.pollIntervalMs,
    extract: (domain, signal) =>
      extractBrand(
        domain,
        {
          capture: renderStages.capture,
          checkUrl: (url) => policy.checkUrl(url),
          guardedFetch,
          blobStore,
          publicUrl: config.server.publicUrl,
        },
        signal,
      ),
    onError: (error, context) => logger.warn({ err: error, context }, 'brand extraction error'),
  });
  core.brandStarter.bind(brandJobs);
  if ((options.role ?? 'all') !== 'api') brandJobs.startWorkers();

  return {
    http,
    services,
    captures,
    database: core.database,
    browserPool,
    egressProxy,
    jobs,
    warmUp: () => browserPool.run(async () => undefined),
    // Stop taking requests, let jobs and captures finish, then release what they used. Every
    // step runs even when an earlier one throws, so Chromium never outlives a failed close.
    close: (onClosed) =>
      closeAll(
        [
          { name: 'HTTP server', close: () => closeHttpServer(http, SHUTDOWN_GRACE_MS) },
          { name: 'job runtime', close: () => jobs.close() },
          { name: 'brand jobs', close: () => brandJobs.close() },
          { name: 'browser pool', close: () => browserPool.close() },
          { name: 'egress proxy', close: () => egressProxy.close() },
          { name: 'Redis', close: () => redis?.disconnect() },
          { name: 'blob store', close: () => blobStore.close() },
          { name: 'database', close: () => core.database.close() },
        ],
        (name, ms) => {
          if (ms >= SLOW_CLOSE_STEP_MS) logger.warn({ step: name, ms }, 'slow shutdown step');
          onClosed?.(name, ms);
        },
      ),
  };
}
