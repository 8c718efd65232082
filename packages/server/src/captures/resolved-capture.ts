import {
  CAPTURE_LIMITS,
  MOTION_TYPES,
  OUTPUT_FORMATS,
  SCENE_ALIGNMENTS,
  SCENE_LAYOUTS,
  SCENE_LIMITS,
  VIDEO_FORMATS,
} from '@vitrine/contract';
import { z } from 'zod';
import type { AiPlan } from '../ai/ai-plan.ts';
import type { PageCaptureOptions } from '../browser/page-capture-options.ts';
import type { ResolvedStyle } from '../compose/index.ts';
import { AppError } from '../errors/app-error.ts';
import type { OutputSettings } from '../image/output-settings.ts';
import type { MotionPlan } from '../motion/motion-plan.ts';
import { controlsParamsOf } from './resolve/resolve-controls.ts';
import type { ResolvedScene } from './resolve/resolve-scene.ts';

/** Output settings after defaults (one shape: the resolved style's `output` is this value). */
export type ResolvedOutput = OutputSettings;

/**
 * A capture request resolved into plain data: every default, preset and device setting applied,
 * the project checked, the cost decided. The sync path renders it, the async path stores it as the
 * job's payload and the worker renders that payload as is (it never resolves the body again).
 * Later capabilities (auth profiles, element, AI, brand) resolve into fields of this record; no
 * secret ever goes into it (it is stored in the jobs table).
 */
export interface ResolvedCapture {
  /** Payload format; a worker refuses a payload of a version it does not know. */
  version: 1;
  /** `capture` (styled) or `raw` (the screenshot alone). */
  kind: 'capture' | 'raw';
  /** The project the capture belongs to (checked: the caller's), or null. */
  projectId: string | null;
  page: PageCaptureOptions;
  output: ResolvedOutput;
  /** The resolved styling; null for a raw capture. */
  style: ResolvedStyle | null;
  /** Credits this capture costs when it renders (a cached result costs 0). */
  cost: number;
  cacheTtlSeconds: number;
  showResolvedParams: boolean;
  /** Said in the result: e.g. a field accepted but adjusted. */
  warnings: string[];
  /**
   * The auth profile to load the page with (checked: the caller's, covering the URL) and the
   * version it had when the capture was accepted; absent without one. Only the reference: the
   * runner fetches the cookies by id at run time.
   */
  authProfile?: { id: string; version: number };
  /** AI assistance decided after the capture (ai, ai_style, ai_copy, ai_brand, prompt), or absent. */
  ai?: AiPlan | null;
  /** A video of the styled look (issue 37), or absent for a still. */
  motion?: MotionPlan;
  /**
   * A scene (issue 38): several shots, each a page of its own, composed into one image with
   * `style` as the scene's look; absent for one shot. `page` is then the first shot's page.
   */
  scene?: ResolvedScene;
}

/** How the caller wants the result: now, or queued with an optional webhook. */
export interface CaptureDelivery {
  async: boolean;
  webhookUrl: string | null;
}

const PAYLOAD_VERSION = 1;

/**
 * The job payload's shape, checked when a worker reads it back (job payloads are an edge:
 * another process, possibly another version, wrote them). The style is our own resolved record
 * and is checked as an object; the page and output are checked field by field.
 */
const resolvedCapturePayloadSchema = z.object({
  version: z.literal(PAYLOAD_VERSION),
  kind: z.enum(['capture', 'raw']),
  projectId: z.string().nullable(),
  page: z.object({
    url: z.string(),
    viewport: z.object({ width: z.number(), height: z.number() }),
    deviceScaleFactor: z.number(),
    isMobile: z.boolean(),
    hasTouch: z.boolean(),
    block: z.array(z.string()),
    darkMode: z.boolean(),
    fullPage: z.boolean(),
    hideSelectors: z.array(z.string()),
    element: z.string().optional(),
  }),
  output: z.object({ format: z.enum(OUTPUT_FORMATS), dpr: z.literal([1, 2, 3]) }),
  style: z.record(z.string(), z.unknown()).nullable(),
  cost: z.number().int().min(0),
  cacheTtlSeconds: z.number().int().min(0).max(CAPTURE_LIMITS.cacheTtlMax),
  showResolvedParams: z.boolean(),
  warnings: z.array(z.string()),
  authProfile: z.object({ id: z.string(), version: z.number().int() }).optional(),
  ai: z
    .object({
      style: z.boolean(),
      copy: z.boolean(),
      brand: z.boolean(),
      prompt: z.string().nullable(),
      fixed: z.array(z.string()).optional(),
      // Payloads queued before `fixed` carried the request's styling fields themselves.
      request: z.record(z.string(), z.unknown()).optional(),
      projectBrand: z.record(z.string(), z.unknown()).nullable(),
    })
    .nullable()
    .optional(),
  motion: z
    .object({
      type: z.enum(MOTION_TYPES),
      format: z.enum(VIDEO_FORMATS),
      duration: z.number(),
      fps: z.number().int(),
    })
    .optional(),
  scene: z
    .object({
      layout: z.enum(SCENE_LAYOUTS),
      spacing: z.number(),
      alignment: z.enum(SCENE_ALIGNMENTS),
      shots: z
        .array(
          z.object({
            page: z.object({
              url: z.string(),
              viewport: z.object({ width: z.number(), height: z.number() }),
            }),
            frame: z.object({
              device: z.string().nullable(),
              device_color: z.string().nullable(),
              device_scale: z.number(),
              frame_ratio: z.string(),
            }),
          }),
        )
        .min(SCENE_LIMITS.shots.min)
        .max(SCENE_LIMITS.shots.max),
    })
    .optional(),
});

/** The job payload of a queued capture: the ResolvedCapture as JSON. */
export function serialiseResolvedCapture(capture: ResolvedCapture): string {
  return JSON.stringify(capture);
}

/** Reads a job payload back; a payload of an unknown shape or version fails the job, clearly. */
export function parseResolvedCapture(payload: string): ResolvedCapture {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch (cause) {
    throw new AppError('internal_error', 'The queued capture payload is not JSON', { cause });
  }
  const checked = resolvedCapturePayloadSchema.safeParse(parsed);
  if (!checked.success) {
    throw new AppError(
      'capture_failed',
      'This job was queued in a format this server does not read; submit the capture again',
      { details: { reason: 'render_failed' }, cause: checked.error },
    );
  }
  const capture = parsed as ResolvedCapture & { ai?: { request?: Record<string, unknown> } | null };
  if (capture.ai && capture.ai.fixed === undefined) {
    const { request, ...plan } = capture.ai;
    capture.ai = { ...plan, fixed: Object.keys(request ?? {}).filter((key) => key !== 'output') };
  }
  return capture;
}

function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;
}

/**
 * What `resolved_params` shows and the result cache hashes: every effective value of the page,
 * the output and the styling. Delivery fields (`async`, `webhook_url`, `cache_ttl`,
 * `show_resolved_params`) are not part of it: they do not change the image.
 */
export function resolvedParamsOf(capture: ResolvedCapture): Record<string, unknown> {
  const { page, output } = capture;
  return {
    ...pageParamsOf(page),
    block: page.block,
    full_page_max_height: CAPTURE_LIMITS.fullPageMaxCssPx,
    ...controlsParamsOf(page),
    // Unstyled captures show only the output settings given (as before nulls were kept).
    output: capture.style ? output : withoutNulls(output),
    ...(capture.style ?? {}),
    ...(capture.authProfile ? { auth_profile_id: capture.authProfile.id } : {}),
    ...(capture.ai
      ? {
          ai: {
            style: capture.ai.style,
            copy: capture.ai.copy,
            brand: capture.ai.brand,
            prompt: capture.ai.prompt,
            brand_source: capture.ai.brand ? (capture.ai.projectBrand ? 'project' : 'page') : null,
            // A refreshed project brand must not hit a result composed with the old one.
            brand_extracted_at: capture.ai.projectBrand?.extracted_at ?? null,
          },
        }
      : {}),
    ...(capture.motion ? { motion: capture.motion } : {}),
    ...(capture.scene ? { scene: sceneParamsOf(capture.scene) } : {}),
  };
}

/** The page fields of `resolved_params` a capture and each shot of a scene share. */
function pageParamsOf(page: PageCaptureOptions): Record<string, unknown> {
  return {
    url: page.url,
    viewport: page.viewport,
    capture_dpr: page.deviceScaleFactor,
    user_agent: page.userAgent ?? null,
    emulate_mobile: page.isMobile,
    emulate_touch: page.hasTouch,
    wait_for: page.waitFor ?? null,
    inject_css: page.injectCss ?? null,
    dark_mode: page.darkMode,
    full_page: page.fullPage,
    hide_selectors: page.hideSelectors,
    selector: page.selector ?? null,
    // Only when given, so the results cached before `element` existed keep their keys.
    ...(page.element !== undefined ? { element: page.element } : {}),
  };
}

/** A scene's part of `resolved_params`: its arrangement, and each shot's page and frame. */
function sceneParamsOf(scene: ResolvedScene): Record<string, unknown> {
  return {
    layout: scene.layout,
    spacing: scene.spacing,
    alignment: scene.alignment,
    shots: scene.shots.map(({ page, frame }) => ({ ...pageParamsOf(page), ...frame })),
  };
}
