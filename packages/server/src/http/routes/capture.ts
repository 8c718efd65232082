import {
  type CaptureQuery,
  type CaptureRequest,
  type CaptureResult,
  captureRequestSchema,
} from '@vitrine/contract';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../../auth/authenticate.ts';
import type { Credits } from '../../billing/credits.ts';
import { AppError, invalidParam } from '../../errors/app-error.ts';
import type { JobService } from '../../jobs/job-service.ts';
import type { ComposeStepDeps } from '../../render/compose-step.ts';
import type { RenderService } from '../../render/render-service.ts';
import { type CapturePrices, resolveCapture } from '../../render/resolve-capture.ts';
import { targetUrlOf } from '../../render/resolve-target.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { renderKey } from '../../storage/render-key.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import { invalidParamsFromZod } from '../error-response.ts';
import type { RouteHandlers } from '../route-handler.ts';
import type { TargetChecker } from './raw-capture.ts';

export interface CaptureRouteDeps {
  renders: RenderService;
  credits: Credits;
  jobs: JobService;
  targets: TargetChecker;
  compose: ComposeStepDeps;
  prices: CapturePrices;
  blobStore: BlobStore;
}

/** Query parameters that are signing metadata or transport options, not capture fields. */
const NON_CAPTURE_KEYS = new Set(['expires', 'signature', 'payload', 'response', 'api_key']);

function decodePayload(payload: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidParam('payload', 'Must be base64url-encoded JSON of a POST /v1/capture body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidParam('payload', 'Must encode a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function integerParam(name: string, value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw invalidParam(name, 'Must be a whole number of pixels');
  return Number(value);
}

/**
 * Maps the query form onto a POST body (contract.md section 4, GET /v1/capture): `site` is
 * `url`, `bg` is `background_preset`, `width`/`height`/`format` are `output.*`; `payload` is a
 * whole body, and explicit query parameters override it.
 */
export function captureBodyFromQuery(query: CaptureQuery): CaptureRequest {
  const body: Record<string, unknown> = query.payload ? decodePayload(query.payload) : {};
  const output = { ...((body.output as Record<string, unknown> | undefined) ?? {}) };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || NON_CAPTURE_KEYS.has(key)) continue;
    if (key === 'site') body.url = value;
    else if (key === 'bg') body.background_preset = value;
    else if (key === 'width' || key === 'height') output[key] = integerParam(key, value);
    else if (key === 'format') output.format = value;
    else body[key] = value;
  }
  if (Object.keys(output).length > 0) body.output = output;
  const parsed = captureRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidParamsFromZod(parsed.error);
  return parsed.data;
}

/**
 * With `async: true` the credits are reserved now (402 before any work) and the job is recorded
 * and queued; a worker renders it through the same render service and commits or refunds them.
 */
async function enqueueCapture(
  deps: CaptureRouteDeps,
  body: CaptureRequest,
  principal: Principal,
  request: ReturnType<typeof resolveCapture>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const reservation = await deps.credits.reserve(principal, request.kind, request.cost);
  try {
    return reply.code(202).send(await deps.jobs.enqueue(principal, body, reservation, body.webhook_url));
  } catch (error) {
    await reservation.refund();
    throw error;
  }
}

export function captureHandlers(
  deps: CaptureRouteDeps,
): Pick<RouteHandlers, 'createCapture' | 'getCapture' | 'getJob'> {
  async function capture(
    body: CaptureRequest,
    principal: Principal,
    reply: FastifyReply,
  ): Promise<CaptureResult | FastifyReply> {
    if (principal.signedProjectId && body.project_id && body.project_id !== principal.signedProjectId) {
      throw invalidParam('project_id', 'A signed URL captures for the project that signed it');
    }
    const url = deps.targets.parseUrl(targetUrlOf(body));
    const request = resolveCapture(body, url.href, principal, { compose: deps.compose, prices: deps.prices });
    await deps.targets.checkUrl(url.href);
    if (body.background_image_url !== undefined) {
      await deps.targets.checkUrl(body.background_image_url, {
        field: 'background_image_url',
        allowBareHost: false,
      });
    }
    if (body.async) {
      if (body.webhook_url !== undefined) {
        await deps.targets.checkUrl(body.webhook_url, { field: 'webhook_url', allowBareHost: false });
      }
      return enqueueCapture(deps, body, principal, request, reply);
    }
    return deps.renders.render(request, clientAbortSignal(reply.raw));
  }

  return {
    createCapture: async ({ principal, body, reply }) => capture(body, principal, reply),
    getJob: async ({ principal, params }) => deps.jobs.get(principal.userId, params.id),
    getCapture: async ({ principal, query, reply }) => {
      const result = await capture(captureBodyFromQuery(query), principal, reply);
      if (!('id' in result)) return result;
      const mode = query.response ?? 'json';
      if (mode === 'redirect') return reply.redirect(result.url, 302);
      if (mode === 'image') {
        const blob = await deps.blobStore.get(renderKey(result.id, result.format));
        if (!blob) throw new AppError('internal_error', `Stored image ${result.id} is missing`);
        return reply
          .code(200)
          .type(blob.contentType)
          .header('cache-control', 'private, max-age=3600')
          .header('x-capture-id', result.id)
          .send(blob.data);
      }
      return result;
    },
  };
}
