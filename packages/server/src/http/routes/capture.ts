import { type CaptureQuery, type CaptureRequest, captureRequestSchema } from '@vitrine/contract';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../../auth/authenticate.ts';
import type { CaptureService } from '../../captures/capture-service.ts';
import { invalidParam } from '../../errors/app-error.ts';
import type { JobService } from '../../jobs/job-service.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import { invalidParamsFromZod } from '../error-response.ts';
import type { RouteHandlers } from '../route-handler.ts';

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

/** Capture routes: parse, hand the body to the capture service, reply with what it did. */
export function captureHandlers(deps: {
  captures: CaptureService;
  jobs: Pick<JobService, 'get'>;
}): Pick<RouteHandlers, 'createCapture' | 'getCapture' | 'getJob'> {
  /** Renders, or queues and answers 202 with the job (the reply is then already sent). */
  async function capture(body: CaptureRequest, principal: Principal, reply: FastifyReply) {
    const request = await deps.captures.resolve(body, principal, 'capture');
    const submitted = await deps.captures.submit(request, principal, clientAbortSignal(reply.raw));
    if (submitted.status === 'queued') reply.code(202).send(submitted.job);
    return submitted;
  }

  return {
    createCapture: async ({ principal, body, reply }) => {
      const submitted = await capture(body, principal, reply);
      return submitted.status === 'queued' ? reply : submitted.result;
    },
    getJob: async ({ principal, params }) => deps.jobs.get(principal.userId, params.id),
    getCapture: async ({ principal, query, reply }) => {
      const body = captureBodyFromQuery(query);
      // A URL used as an <img> or <video> source cannot poll a job: a video it asks for renders
      // now unless its payload says `async: true`.
      const inline = query.response === 'redirect' || query.response === 'image';
      const submitted = await capture(inline ? { async: false, ...body } : body, principal, reply);
      if (submitted.status === 'queued') return reply;
      const { result } = submitted;
      const mode = query.response ?? 'json';
      if (mode === 'redirect') return reply.redirect(result.url, 302);
      if (mode === 'image') {
        const blob = await deps.captures.storedImage(result);
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
