import type {
  Brand,
  CaptureRequest,
  CaptureResult,
  CreditPrices,
  JobAccepted,
  RawCaptureRequest,
} from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import { AppError, invalidParam, notFound } from '../errors/app-error.ts';
import type { BlobStore, StoredBlob } from '../storage/blob-store.ts';
import { renderKey } from '../storage/render-key.ts';
import { aiCostOf, resolveCaptureFields } from './resolve/resolve-capture.ts';
import { htmlTargetOf } from './resolve/resolve-controls.ts';
import { targetUrlOf } from './resolve/resolve-page.ts';
import type { CaptureDelivery, ResolvedCapture } from './resolved-capture.ts';
import type { CaptureRunner, ReservationRef } from './run-capture.ts';

/**
 * The API-level URL check of the network policy (the egress proxy is the real control):
 * `parseUrl` refuses what is wrong without DNS, `checkUrl` also resolves and checks addresses.
 */
export interface TargetChecker {
  parseUrl(input: string, options?: { field?: string; allowBareHost?: boolean }): URL;
  checkUrl(input: string, options?: { field?: string; allowBareHost?: boolean }): Promise<{ url: URL }>;
}

/** Queues a resolved capture (the job service); the ResolvedCapture is the job's payload. */
export interface CaptureQueue {
  enqueue(
    principal: Principal,
    capture: ResolvedCapture,
    reservation: ReservationRef,
    webhookUrl: string | null,
  ): Promise<JobAccepted>;
}

/** The auth profile check of a capture (authprofiles/auth-profile-service.ts). */
export interface AuthProfileResolver {
  /** 404 for an unknown or another account's profile, 400 `auth_profile_mismatch` off its domain. */
  resolveForCapture(userId: string, id: string, url: URL): Promise<{ id: string; version: number }>;
}

export interface CaptureServiceDeps {
  targets: TargetChecker;
  /** The caller's project by id, or undefined (unknown, or another account's). */
  findProject(
    userId: string,
    projectId: string,
  ): Promise<{ brand: string | null; brand_status: string } | undefined>;
  runner: CaptureRunner;
  queue: CaptureQueue;
  prices: CreditPrices;
  /** Throws a 400 naming `background` for a reference the catalogue does not have. */
  validateBackgroundReference(ref: string): void;
  blobStore: Pick<BlobStore, 'get'>;
  /** Absent: captures with `auth_profile_id` are refused. */
  authProfiles?: AuthProfileResolver;
  /** false: ffmpeg is off, and requests with `motion` are refused. */
  motionAvailable?: boolean;
}

/** A request resolved: what to render, and how the caller wants it delivered. */
export interface ResolvedRequest {
  capture: ResolvedCapture;
  delivery: CaptureDelivery;
}

export type Submitted =
  | { status: 'rendered'; result: CaptureResult; image?: { data: Buffer; contentType: string } }
  | { status: 'queued'; job: JobAccepted };

/** A capture done: rendered (its result; its image on demand) or queued (the job). */
export type Captured =
  | {
      status: 'rendered';
      result: CaptureResult;
      /** The image's bytes: the ones just rendered, or the stored ones of a cached result. */
      image(): Promise<{ data: Buffer; contentType: string }>;
    }
  | { status: 'queued'; job: JobAccepted };

/** A queued capture as the worker hands it over. */
export interface QueuedCapture {
  principal: Principal;
  capture: ResolvedCapture;
  /** Fixed at enqueue, so a re-delivered job never renders twice. */
  captureId: string;
  /** Reserved at enqueue; the runner commits it on success, or refunds it when the job fails for good. */
  reservation: ReservationRef;
}

/**
 * The one home of a capture request: every path (POST and GET /v1/capture, signed URLs,
 * POST /v1/raw, the async worker) resolves and checks in the same order here, then renders or
 * queues the same ResolvedCapture. Routes only parse, call this, and reply.
 */
export function createCaptureService(deps: CaptureServiceDeps) {
  /**
   * Checks run cheapest first, so a bad field is a 400 even when the target cannot be reached:
   * the signed project, the URL's form, every field (no I/O), the project's owner (404), the
   * auth profile's owner (404) and domain (400 `auth_profile_mismatch`), then the network
   * policy's DNS checks of the target, the background image and the webhook (403).
   * Nothing here reserves credits or starts work.
   */
  async function resolve(
    body: CaptureRequest | RawCaptureRequest,
    principal: Principal,
    kind: ResolvedCapture['kind'],
  ): Promise<ResolvedRequest> {
    const styled = kind === 'capture' ? (body as CaptureRequest) : undefined;
    if (principal.signedProjectId && body.project_id && body.project_id !== principal.signedProjectId) {
      throw invalidParam('project_id', 'A signed URL captures for the project that signed it');
    }
    // An `html` document has no URL to check: it is served inside the browser, and everything it
    // loads goes through the egress proxy like any page's requests.
    const htmlTarget = htmlTargetOf(body);
    const url = htmlTarget ? new URL(htmlTarget) : deps.targets.parseUrl(targetUrlOf(body));
    // A video runs as a job unless the request asks to wait for it (`async: false`).
    const isAsync = styled?.async ?? styled?.motion !== undefined;
    if (styled?.webhook_url !== undefined && !isAsync) {
      throw invalidParam('webhook_url', 'webhook_url needs async: true');
    }
    const projectId = body.project_id ?? principal.signedProjectId ?? null;
    // A scene's shots: each shot's own URL (its form checked like the request's), else the request's.
    const shotUrls = (styled?.shots ?? []).map((shot, index) => {
      if (shot.url === undefined) return url.href;
      const field = `shots[${index}].url`;
      if (htmlTarget)
        throw invalidParam(field, 'A scene of an html document shows that document: no url per shot');
      return deps.targets.parseUrl(targetUrlOf({ url: shot.url }), { field }).href;
    });
    const capture = resolveCaptureFields(body, kind, url.href, projectId, deps, shotUrls);
    if (capture.motion && deps.motionAvailable === false) {
      throw invalidParam('motion', 'videos are not available on this server (VITRINE_FFMPEG_PATH is off)');
    }
    if (body.project_id !== undefined && !(await deps.findProject(principal.userId, body.project_id))) {
      throw notFound(`Project ${body.project_id}`);
    }
    if (capture.ai?.brand && projectId !== null) {
      // A completed project brand is used as is and waives the brand surcharge; otherwise the
      // page's own brand is read in the same load (and charged).
      const project = await deps.findProject(principal.userId, projectId);
      if (project?.brand_status === 'completed' && project.brand !== null) {
        const before = aiCostOf(capture.ai, deps.prices);
        capture.ai = { ...capture.ai, projectBrand: JSON.parse(project.brand) as Brand };
        capture.cost -= before - aiCostOf(capture.ai, deps.prices);
      }
    }
    if (body.auth_profile_id !== undefined) {
      if (!deps.authProfiles)
        throw invalidParam('auth_profile_id', 'Auth profiles are not available on this server');
      capture.authProfile = await deps.authProfiles.resolveForCapture(
        principal.userId,
        body.auth_profile_id,
        url,
      );
    }
    if (!htmlTarget) await deps.targets.checkUrl(url.href);
    // Each other page of a scene, once, named by the first shot that shows it.
    const checked = new Set([url.href]);
    for (const [index, shotUrl] of shotUrls.entries()) {
      if (checked.has(shotUrl)) continue;
      checked.add(shotUrl);
      await deps.targets.checkUrl(shotUrl, { field: `shots[${index}].url` });
    }
    if (styled?.background_image_url !== undefined) {
      await deps.targets.checkUrl(styled.background_image_url, {
        field: 'background_image_url',
        allowBareHost: false,
      });
    }
    const delivery: CaptureDelivery = {
      async: isAsync,
      webhookUrl: styled?.webhook_url ?? null,
    };
    if (delivery.webhookUrl !== null) {
      await deps.targets.checkUrl(delivery.webhookUrl, { field: 'webhook_url', allowBareHost: false });
    }
    return { capture, delivery };
  }

  /**
   * Renders now (credits reserved by the runner, 402 before any work), or has the runner reserve
   * the credits and queues the ResolvedCapture as the job's payload (202); a worker renders it
   * with `runQueued` (the runner commits them) or reports with `failQueued` that it failed for
   * good (the runner refunds them).
   */
  async function submit(
    request: ResolvedRequest,
    principal: Principal,
    signal: AbortSignal,
  ): Promise<Submitted> {
    const { capture, delivery } = request;
    if (!delivery.async) {
      return { status: 'rendered', ...(await deps.runner.run({ capture, principal }, signal)) };
    }
    const reservation = await deps.runner.reserve(principal, capture);
    try {
      const job = await deps.queue.enqueue(principal, capture, reservation, delivery.webhookUrl);
      return { status: 'queued', job };
    } catch (error) {
      await deps.runner.refundQueued(reservation);
      throw error;
    }
  }

  /**
   * One call for a capture, from any door (POST and GET /v1/capture, POST /v1/raw, the
   * playground): resolve, then render or queue. A rendered result's image is there on demand:
   * the bytes just rendered, never read back from the store; a cached result's stored ones.
   */
  async function capture(
    body: CaptureRequest | RawCaptureRequest,
    principal: Principal,
    kind: ResolvedCapture['kind'],
    signal: AbortSignal,
  ): Promise<Captured> {
    const submitted = await submit(await resolve(body, principal, kind), principal, signal);
    if (submitted.status === 'queued') return submitted;
    const { result, image } = submitted;
    return { status: 'rendered', result, image: async () => image ?? (await storedImage(result)) };
  }

  /** The worker's render of a queued capture: the stored payload as is, never re-resolved. */
  async function runQueued(queued: QueuedCapture, signal: AbortSignal): Promise<CaptureResult> {
    return (await deps.runner.run(queued, signal)).result;
  }

  /** The job worker reports a queued capture that failed for good: the runner refunds it. */
  function failQueued(reservation: ReservationRef): Promise<void> {
    return deps.runner.refundQueued(reservation);
  }

  /** The stored bytes of a result (a cached result answered with its image). */
  async function storedImage(result: CaptureResult): Promise<StoredBlob> {
    const blob = await deps.blobStore.get(renderKey(result.id, result.format));
    if (!blob) throw new AppError('internal_error', `Stored image ${result.id} is missing`);
    return blob;
  }

  return { capture, resolve, submit, runQueued, failQueued };
}

export type CaptureService = ReturnType<typeof createCaptureService>;
