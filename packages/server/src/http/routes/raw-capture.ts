import { CAPTURE_LIMITS } from '@vitrine/contract';
import type { RenderService } from '../../render/render-service.ts';
import {
  rawResolvedParams,
  resolveOutput,
  resolvePageCapture,
  targetUrlOf,
} from '../../render/resolve-target.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import type { RouteHandlers } from '../route-handler.ts';

/**
 * The API-level URL check of the network policy (the egress proxy is the real control):
 * `parseUrl` refuses what is wrong without DNS, `checkUrl` also resolves and checks addresses.
 * Handlers parse first, validate every field, and resolve last, so a bad field is a 400 even
 * when the target cannot be reached.
 */
export interface TargetChecker {
  parseUrl(input: string, options?: { field?: string; allowBareHost?: boolean }): URL;
  checkUrl(input: string, options?: { field?: string; allowBareHost?: boolean }): Promise<{ url: URL }>;
}

export interface RawCaptureDeps {
  renders: RenderService;
  targets: TargetChecker;
  /** Credits for one unstyled capture (contract.md section 3: raw 1). */
  cost: number;
}

export function rawCaptureHandlers(deps: RawCaptureDeps): Pick<RouteHandlers, 'createRawCapture'> {
  return {
    createRawCapture: async ({ principal, body, reply }) => {
      const output = resolveOutput(body.output);
      const url = deps.targets.parseUrl(targetUrlOf(body));
      const page = resolvePageCapture(body, url.href, output);
      await deps.targets.checkUrl(url.href);
      return deps.renders.render(
        {
          kind: 'raw',
          principal,
          projectId: body.project_id ?? null,
          resolvedParams: rawResolvedParams(page, output),
          cacheTtlSeconds: body.cache_ttl ?? CAPTURE_LIMITS.cacheTtlDefault,
          showResolvedParams: body.show_resolved_params ?? false,
          cost: deps.cost,
          job: { page, output },
        },
        clientAbortSignal(reply.raw),
      );
    },
  };
}
