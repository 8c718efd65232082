import {
  type CaptureRequest,
  type CreditPrices,
  composeFieldsShape,
  type Device,
  type RawCaptureRequest,
} from '@vitrine/contract';
import type { AiPlan } from '../../ai/ai-plan.ts';
import type { AiChoices } from '../../ai/ai-step.ts';
import { deviceCaptureDefaults, type ResolvedStyle } from '../../compose/index.ts';
import type { ResolvedCapture } from '../resolved-capture.ts';
import { type AiOverlay, layChoices, overlayOutcome } from './ai-overlay.ts';
import { outputWithCanvas } from './canvas-preset.ts';
import { withDefaults } from './defaults.ts';
import { motionCostOf, resolveMotion } from './resolve-motion.ts';
import { resolvePageCapture } from './resolve-page.ts';
import { resolveScene, sceneLoadCost } from './resolve-scene.ts';
import { resolveOutput, resolveStyle } from './resolve-style.ts';

const EIGHT_MEGAPIXELS = 8_000_000;

/** What resolution needs besides the body: prices and the background catalogue's check. */
export interface ResolveFieldsDeps {
  prices: CreditPrices;
  /** Throws a 400 naming `background` for a reference the catalogue does not have. */
  validateBackgroundReference(ref: string): void;
}

/**
 * The AI plan of a styled capture, or null: `ai` means style + copy; a `prompt` is styling too.
 * The names of the styling fields the request set are kept, to be laid over the AI's choices
 * (their values are in the plan's resolved style).
 */
function aiPlanOf(body: CaptureRequest): AiPlan | null {
  const style = body.ai === true || body.ai_style === true || body.prompt !== undefined;
  const copy = body.ai === true || body.ai_copy === true;
  const brand = body.ai_brand === true;
  if (!style && !copy && !brand) return null;
  const fixed = Object.keys(composeFieldsShape).filter(
    (key) => (body as Record<string, unknown>)[key] !== undefined,
  );
  return {
    style: body.ai === true || body.ai_style === true,
    copy,
    brand,
    prompt: body.prompt ?? null,
    fixed,
    projectBrand: null,
  };
}

/**
 * AI surcharges (docs/api-decisions.md sections 3 and 10), decided before any work: styling (`ai_style`,
 * `ai`, or a `prompt`) once, copy, and a brand unless the project's brand is already extracted.
 */
export function aiCostOf(plan: AiPlan | null | undefined, prices: CreditPrices): number {
  if (!plan) return 0;
  return (
    (plan.style || plan.prompt !== null ? prices.ai_style : 0) +
    (plan.copy ? prices.ai_copy : 0) +
    (plan.brand && plan.projectBrand === null ? prices.ai_brand : 0)
  );
}

/**
 * The megapixel surcharge is decided before any work, from the requested geometry: the viewport
 * (the page height is not known before a full-page capture, so the viewport height counts), the
 * capture DPR, the resolved padding and the output size. Never charged after the fact.
 */
function estimatedOutputPixels(capture: Pick<ResolvedCapture, 'page' | 'output' | 'style'>): number {
  const { output, page, style } = capture;
  if (output.width !== null && output.height !== null) return output.width * output.height * output.dpr ** 2;
  const padding = style?.padding ?? 0;
  const dpr = style ? output.dpr : page.deviceScaleFactor;
  return (page.viewport.width + 2 * padding) * (page.viewport.height + 2 * padding) * dpr * dpr;
}

/** Credits of a capture that renders (docs/api-decisions.md section 3); a cached result costs nothing. */
function costOf(capture: Pick<ResolvedCapture, 'kind' | 'page' | 'output' | 'style'>, prices: CreditPrices) {
  if (capture.kind === 'raw') return prices.raw;
  return (
    prices.capture +
    // A scroll video's full page is part of its per-second price.
    (capture.page.fullPage && !capture.page.scroll ? prices.full_page : 0) +
    (estimatedOutputPixels(capture) > EIGHT_MEGAPIXELS ? prices.over_8_megapixels : 0)
  );
}

/**
 * Turns a validated body into a ResolvedCapture, with no I/O: the output, the page options
 * (device presets applied), the styling (defaults and presets applied) and the cost. Every
 * field check that needs no lookup happens here, so a bad field is a 400 before anything else.
 * `url` is the target after `url`/`site` were reconciled and parsed.
 */
export function resolveCaptureFields(
  body: CaptureRequest | RawCaptureRequest,
  kind: ResolvedCapture['kind'],
  url: string,
  projectId: string | null,
  deps: ResolveFieldsDeps,
  /** The targets of a scene's shots (the request's for a shot without `url`), form checked. */
  shotUrls: string[] = [],
): ResolvedCapture {
  const motion = resolveMotion(body);
  const output = resolveOutput(kind === 'capture' ? outputWithCanvas(body as CaptureRequest) : body.output);
  let style: ResolvedCapture['style'] = null;
  let page: ResolvedCapture['page'];
  let ai: AiPlan | null = null;
  let scene: ResolvedCapture['scene'];
  if (kind === 'capture') {
    const styled = body as CaptureRequest;
    scene = resolveScene(styled, shotUrls, output);
    ai = aiPlanOf(styled);
    style = resolveStyle(styled, output);
    if (style.background !== null && style.background_image_url === null) {
      deps.validateBackgroundReference(style.background);
    }
    page = resolvePageCapture(
      styled,
      url,
      output,
      styled.device === undefined ? undefined : deviceCaptureDefaults(styled.device),
    );
    if (ai) page = { ...page, collectSignals: true };
    // A scroll video shows the whole page, one viewport at a time.
    if (motion?.scrollTo) page = { ...page, fullPage: true, scroll: motion.scrollTo };
    // A video's frame is at most 2560 px wide, so its screen rarely needs a device's DPR of 2
    // or 3: without capture_dpr it is captured at output.dpr (a tenth of the pixels to shoot,
    // decode and fit per page of an iPhone).
    if (motion && styled.capture_dpr === undefined) page = { ...page, deviceScaleFactor: output.dpr };
    // A scene's page is its first shot's (what `metadata` and the plain result fields describe).
    if (scene) page = (scene.shots[0] as NonNullable<typeof scene>['shots'][number]).page;
  } else {
    page = resolvePageCapture(body, url, output);
  }
  const resolved = { kind, page, output, style };
  const base = scene
    ? sceneLoadCost(scene, deps.prices) +
      (estimatedOutputPixels(resolved) > EIGHT_MEGAPIXELS ? deps.prices.over_8_megapixels : 0)
    : costOf(resolved, deps.prices);
  const delivery = withDefaults(body);
  return {
    version: 1,
    kind,
    projectId,
    page,
    output,
    style,
    cost: base + aiCostOf(ai, deps.prices) + motionCostOf(motion, deps.prices),
    cacheTtlSeconds: delivery.cache_ttl,
    showResolvedParams: delivery.show_resolved_params,
    warnings: [],
    ...(ai ? { ai } : {}),
    ...(motion ? { motion } : {}),
    ...(scene ? { scene } : {}),
  };
}

/**
 * The AI step's choices applied to a plan: laid under the fields the caller fixed and resolved
 * by the same resolver as the request was (once, after the capture; the AI resolves nothing).
 */
export function applyAiChoices(
  plan: Pick<ResolvedCapture, 'output'> & { style: NonNullable<ResolvedCapture['style']>; ai: AiPlan },
  choices: AiChoices,
): AiOverlay {
  const laid = layChoices(plan, choices);
  return overlayOutcome(resolveStyle(laid.request, plan.output), choices, laid);
}

/**
 * The look of a device's thumbnail (GET /v1/devices): the device in one finish on a transparent
 * canvas of `box`, resolved like any request's look.
 */
export function deviceThumbnailLook(
  device: Device,
  finish: string,
  box: { width: number; height: number },
): ResolvedStyle {
  return resolveStyle({
    device,
    device_color: finish,
    background_style: 'transparent',
    padding: 12,
    shadow: 'soft',
    output: { format: 'png', width: box.width, height: box.height },
  });
}
