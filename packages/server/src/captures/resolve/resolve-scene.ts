import {
  type AspectRatio,
  type CaptureRequest,
  type CreditPrices,
  type Device,
  SCENE_LIMITS,
  type SceneAlignment,
  type SceneLayoutName,
  SHOT_FIELDS,
  type ShotRequest,
  stableJson,
} from '@vitrine/contract';
import type { PageCaptureOptions } from '../../browser/page-capture-options.ts';
import { deviceCaptureDefaults } from '../../compose/index.ts';
import { AppError, invalidParam } from '../../errors/app-error.ts';
import type { OutputSettings } from '../../image/output-settings.ts';
import { withDefaults } from './defaults.ts';
import { resolvePageCapture } from './resolve-page.ts';
import { checkDeviceColor } from './style-field-checks.ts';

/** How one shot is framed: its device and finish, and the part of its capture shown. */
export interface ResolvedShotFrame {
  device: Device | null;
  device_color: string | null;
  device_scale: number;
  frame_ratio: AspectRatio;
}

/** One shot of a scene: the page it shows (captured as any page) and its frame. */
export interface ResolvedShot {
  page: PageCaptureOptions;
  frame: ResolvedShotFrame;
}

/** A scene resolved: its arrangement and its shots, in the request's order (later ones in front). */
export interface ResolvedScene {
  layout: SceneLayoutName;
  spacing: number;
  alignment: SceneAlignment;
  shots: ResolvedShot[];
}

/**
 * An error of one shot's field named by the shot's index (`shots[2].full_page`), so the caller
 * knows which shot to fix; any other error as it was.
 */
function inShot(index: number, error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'invalid_params') return error;
  const issues = (error.details?.issues as { path: string; message: string }[] | undefined) ?? [];
  const named = issues.map((issue) => ({
    path: `shots[${index}].${issue.path}`,
    message: issue.message.replace(`Invalid ${issue.path}`, `Invalid shots[${index}].${issue.path}`),
  }));
  const first = named[0];
  return new AppError(
    'invalid_params',
    first ? `Invalid ${first.path}. ${first.message.replace(/^Invalid \S+\.\s*/, '')}` : error.message,
    { details: { ...error.details, issues: named }, cause: error },
  );
}

/** Fields of the request that a scene does not take (each a 400 naming it). */
function refuseWithScene(body: CaptureRequest): void {
  if (body.motion !== undefined)
    throw invalidParam('motion', 'motion cannot be combined with shots: a scene is one still image');
  for (const field of ['ai', 'ai_style', 'ai_copy', 'ai_brand'] as const) {
    if (body[field] === true)
      throw invalidParam(field, `${field} cannot be combined with shots: AI assistance styles one page`);
  }
  if (body.prompt !== undefined)
    throw invalidParam('prompt', 'prompt cannot be combined with shots: AI assistance styles one page');
  if (body.layout !== undefined && body.layout !== 'default') {
    throw invalidParam(
      'layout',
      'A cropped device layout does not apply to a scene; arrange the shots with scene.layout (side-by-side, overlap, fan, grid, stack, cascade)',
    );
  }
}

/**
 * The scene of a request, or undefined without `shots` (and a 400 for `scene` without them).
 * Each shot is the request with the shot's own fields laid over it (SHOT_FIELDS: a field the
 * shot leaves out is the request's), resolved by the page resolver like any capture; a device's
 * finish is inherited only with the device itself. `urls` are the shots' targets, already
 * checked for their form (the request's for a shot without `url`).
 */
export function resolveScene(
  body: CaptureRequest,
  urls: string[],
  output: OutputSettings,
): ResolvedScene | undefined {
  if (body.shots === undefined) {
    if (body.scene !== undefined)
      throw invalidParam(
        'scene',
        `scene needs shots: ${SCENE_LIMITS.shots.min} to ${SCENE_LIMITS.shots.max}`,
      );
    return undefined;
  }
  refuseWithScene(body);
  const scene = withDefaults(body).scene as Required<NonNullable<CaptureRequest['scene']>>;
  const shared: Record<string, unknown> = { ...body };
  for (const field of [...SHOT_FIELDS, 'shots', 'scene']) delete shared[field];
  const shots = body.shots.map((shot, index) => {
    try {
      return resolveShot(body, shared, shot, urls[index] as string, output);
    } catch (error) {
      throw inShot(index, error);
    }
  });
  return { layout: scene.layout, spacing: scene.spacing, alignment: scene.alignment, shots };
}

function resolveShot(
  body: CaptureRequest,
  shared: Record<string, unknown>,
  shot: ShotRequest,
  url: string,
  output: OutputSettings,
): ResolvedShot {
  const own = Object.fromEntries(Object.entries(shot).filter(([, v]) => v !== undefined));
  const inherited = Object.fromEntries(
    SHOT_FIELDS.filter((f) => f !== 'url' && own[f] === undefined && body[f] !== undefined).map((f) => [
      f,
      body[f],
    ]),
  );
  // A finish belongs to its device: another device than the request's does not take its colour.
  if (shot.device !== undefined && shot.device !== body.device) delete inherited.device_color;
  // A part of the page given by the shot replaces the request's other ways of choosing one.
  if (own.element !== undefined || own.selector !== undefined || own.full_page !== undefined) {
    for (const f of ['element', 'selector', 'full_page'] as const) delete inherited[f];
  }
  const merged = { ...shared, ...inherited, ...own } as CaptureRequest;
  const device = merged.device ?? null;
  const page = resolvePageCapture(
    merged,
    url,
    output,
    device === null ? undefined : deviceCaptureDefaults(device),
  );
  const defaults = withDefaults(merged);
  return {
    page,
    frame: {
      device,
      device_color: device ? checkDeviceColor(device, merged.device_color) : null,
      device_scale: defaults.device_scale,
      frame_ratio: defaults.frame_ratio,
    },
  };
}

/** The key of a shot's page load: shots with equal page options share one load. */
export function shotLoadKey(page: PageCaptureOptions): string {
  return stableJson(page);
}

/**
 * What a scene's page loads cost (docs/api-decisions.md, "Scenes"): `capture` per page load
 * (shots with equal page options are one load) and `full_page` per full-page load. The compose
 * of the scene is the one a single capture's price already includes, so a scene costs the sum
 * of its captures, and no more.
 */
export function sceneLoadCost(scene: ResolvedScene, prices: CreditPrices): number {
  const loads = new Map<string, PageCaptureOptions>();
  for (const shot of scene.shots) loads.set(shotLoadKey(shot.page), shot.page);
  let cost = 0;
  for (const page of loads.values()) cost += prices.capture + (page.fullPage ? prices.full_page : 0);
  return cost;
}
