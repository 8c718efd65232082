import { CAPTURE_LIMITS, type CaptureRequest } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import { deviceCaptureDefaults } from '../compose/frames/frame-catalogue.ts';
import { resolveStyle } from '../compose/resolve-style.ts';
import { invalidParam } from '../errors/app-error.ts';
import { type ComposeStepDeps, composeStep } from './compose-step.ts';
import type { RenderRequest } from './render-service.ts';
import { rawResolvedParams, resolveOutput, resolvePageCapture } from './resolve-target.ts';

/** Credit prices (contract.md section 3); configurable defaults. */
export interface CapturePrices {
  capture: number;
  fullPage: number;
  over8Megapixels: number;
}

export const DEFAULT_CAPTURE_PRICES: CapturePrices = { capture: 1, fullPage: 1, over8Megapixels: 1 };

const EIGHT_MEGAPIXELS = 8_000_000;

/** Fields that need a later capability: refused by name rather than ignored. */
function refuseUnavailable(body: CaptureRequest): void {
  for (const field of ['ai', 'ai_style', 'ai_copy'] as const) {
    if (body[field]) throw invalidParam(field, 'AI-assisted styling is not available on this server yet');
  }
  if (body.prompt !== undefined)
    throw invalidParam('prompt', 'AI-assisted styling is not available on this server yet');
  if (body.webhook_url !== undefined && !body.async)
    throw invalidParam('webhook_url', 'webhook_url needs async: true');
}

/**
 * The megapixel surcharge is decided before any work, from the requested geometry: the viewport
 * (the page height is not known before a full-page capture, so the viewport height counts),
 * the capture DPR, padding and the output size. Never charged after the fact.
 */
function estimatedOutputPixels(
  body: CaptureRequest,
  viewport: { width: number; height: number },
  dpr: number,
) {
  const out = body.output;
  if (out?.width !== undefined && out.height !== undefined)
    return out.width * out.height * (out.dpr ?? 1) ** 2;
  const padding = body.background_style === 'none' ? (body.padding ?? 0) : (body.padding ?? 64);
  return (viewport.width + 2 * padding) * (viewport.height + 2 * padding) * dpr * dpr;
}

/** Turns a validated capture request into what the render service runs and charges. */
export function resolveCapture(
  body: CaptureRequest,
  url: string,
  principal: Principal,
  deps: { compose: ComposeStepDeps; prices: CapturePrices },
): RenderRequest {
  refuseUnavailable(body);
  const output = resolveOutput(body.output);
  const style = resolveStyle(body);
  if (style.background !== null && style.background_image_url === null) {
    deps.compose.backgroundImages.validateReference(style.background);
  }
  const page = resolvePageCapture(
    body,
    url,
    output,
    body.device === undefined ? undefined : deviceCaptureDefaults(body.device),
  );
  const pixels = estimatedOutputPixels(body, page.viewport, output.dpr);
  const cost =
    deps.prices.capture +
    (page.fullPage ? deps.prices.fullPage : 0) +
    (pixels > EIGHT_MEGAPIXELS ? deps.prices.over8Megapixels : 0);
  return {
    kind: 'capture',
    principal,
    projectId: body.project_id ?? principal.signedProjectId ?? null,
    resolvedParams: { ...rawResolvedParams(page, output), ...style },
    cacheTtlSeconds: body.cache_ttl ?? CAPTURE_LIMITS.cacheTtlDefault,
    showResolvedParams: body.show_resolved_params ?? false,
    cost,
    job: { page, output, compose: composeStep(style, page.deviceScaleFactor, deps.compose) },
  };
}
