import { type BrandTitleFont, brandTitleFont, projectTitleFont, webFontOf } from '../brand/brand-font.ts';
import type { PageCapture } from '../capture/page-capture-options.ts';
import { resolveStyle } from '../captures/resolve/resolve-style.ts';
import type { ResolvedStyle, StyleRequest } from '../compose/style-types.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { AiPlan } from './ai-plan.ts';
import type { AiProvider, ChosenFields, PageSignals } from './ai-types.ts';
import { brandFields, brandOfPage } from './brand-fields.ts';
import { readScreenshot } from './screenshot-palette.ts';

/** What the AI step hands the compose stage: the final style, and what the result reports. */
export interface AiOutcome {
  style: ResolvedStyle;
  decisions: Record<string, unknown>;
  warnings: string[];
}

/** Every request field that decides the background. */
const BACKGROUND_FIELDS: (keyof StyleRequest)[] = [
  'background_style',
  'background_preset',
  'background_color',
  'background_gradient',
  'background',
  'background_image_url',
];

/** Request fields that, when given, mean the caller decided that aspect: the AI keeps out of it. */
const OWNED_BY: Record<string, (keyof StyleRequest)[]> = {
  background_preset: BACKGROUND_FIELDS,
  background_gradient: BACKGROUND_FIELDS,
  camera_preset: ['camera_preset', 'perspective', 'tilt_x', 'tilt_y', 'roll', 'zoom'],
  perspective: ['camera_preset', 'perspective', 'tilt_x', 'tilt_y', 'roll'],
  shadow: ['shadow'],
  border: ['border', 'border_width', 'border_color'],
  padding: ['padding'],
  corner_radius: ['corner_radius'],
  aspect_ratio: ['aspect_ratio', 'frame_ratio'],
  device: ['device'],
  title_font: ['title_font'],
  title_size: ['title_size'],
  title_position: ['title_position'],
};

/** The AI choices the request leaves open, and the ones it overrides. */
function openChoices(chosen: ChosenFields, request: StyleRequest) {
  const applied: Record<string, unknown> = {};
  const overridden: string[] = [];
  for (const [field, value] of Object.entries(chosen)) {
    const owners = OWNED_BY[field] ?? [field as keyof StyleRequest];
    if (owners.some((f) => request[f] !== undefined)) overridden.push(field);
    else applied[field] = value;
  }
  return { applied, overridden };
}

/**
 * The AI step of a render: after the page is captured (its signals gathered in the same load) and
 * before compose. Asks the provider, applies the brand, lays the request's explicit fields over
 * every choice, and resolves the style again from that; `ai_decisions` says what was chosen,
 * what the request overrode and why.
 */
export interface AiStepDeps {
  provider: AiProvider;
  /** For the page's own web font under `ai_brand` (none: the title font stays a catalogue family). */
  guardedFetch?: GuardedFetch;
  /** Where brand extraction keeps a project brand's font file. */
  blobStore?: Pick<BlobStore, 'get'>;
}

/** The brand's own font for the title: the project brand's kept file, else the page's web font. */
async function brandFontFor(
  plan: AiPlan,
  signals: PageSignals,
  deps: AiStepDeps,
  signal: AbortSignal,
): Promise<BrandTitleFont | null> {
  if (plan.projectBrand) {
    const file = plan.projectBrand.fonts.file;
    return file && deps.blobStore ? projectTitleFont(file, deps.blobStore) : null;
  }
  const web = webFontOf(signals);
  if (!web || !deps.guardedFetch) return null;
  return brandTitleFont(web.family, web.sources, web.generic, deps.guardedFetch, signal);
}

export function createAiStep(deps: AiStepDeps) {
  return async (plan: AiPlan, capture: PageCapture, signal: AbortSignal): Promise<AiOutcome> => {
    const signals = capture.signals;
    if (!signals) throw new Error('The AI step needs the page signals of the capture');
    const { palette, thumbnail } = await readScreenshot(capture.png);
    const decision = await deps.provider.decide(
      { signals, palette, thumbnail, style: plan.style, copy: plan.copy, prompt: plan.prompt },
      signal,
    );
    const reasons = [...decision.reasons];
    let chosen: ChosenFields = { ...decision.chosen };
    let brandReport: Record<string, unknown> | null = null;
    let ownFont: string | null = null;
    if (plan.brand) {
      const brand = plan.projectBrand ?? brandOfPage(signals, palette, capture.finalUrl);
      // The site's own web font for the title, when the request leaves the title font open: the
      // project brand's kept file, or the page's heading (or body) family's file.
      const titleFont =
        plan.request.title_font === undefined ? await brandFontFor(plan, signals, deps, signal) : null;
      if (titleFont?.kind === 'own') ownFont = titleFont.family;
      const fromBrand = brandFields(brand, titleFont);
      chosen = { ...chosen, ...fromBrand.fields };
      reasons.push(...fromBrand.reasons);
      brandReport = {
        source: plan.projectBrand ? 'project' : 'page',
        colors: brand.colors,
        fonts: brand.fonts,
        ...(titleFont
          ? {
              title_font:
                titleFont.kind === 'own'
                  ? { family: titleFont.name, from: 'site', file: titleFont.source }
                  : { family: titleFont.family, from: 'catalogue', instead_of: titleFont.name },
            }
          : {}),
        dark_mode: brand.dark_mode,
      };
    }
    const { applied, overridden } = openChoices(chosen, plan.request);
    const copy: Record<string, unknown> = {};
    const wantsCopy = plan.copy || decision.copy.headline !== null;
    if (wantsCopy) {
      if (decision.copy.headline && plan.request.title === undefined) copy.title = decision.copy.headline;
      if (decision.copy.subtitle && plan.request.subtitle === undefined)
        copy.subtitle = decision.copy.subtitle;
      if (decision.copy.badge && plan.request.badge === undefined) copy.badge = decision.copy.badge;
      for (const f of ['title', 'subtitle', 'badge'] as const) {
        if (plan.request[f] !== undefined) overridden.push(f);
      }
    }
    const resolved = resolveStyle({ ...applied, ...copy, ...plan.request } as StyleRequest);
    // A brand's own face is registered under its own name (font-families.ts), which no request
    // field may name: it is set on the resolved style, after the request's fields were checked.
    const style = ownFont ? { ...resolved, title_font: ownFont } : resolved;
    if (overridden.length > 0) reasons.push(`explicit request fields kept: ${overridden.join(', ')}`);
    return {
      style,
      warnings: decision.warnings,
      decisions: {
        engine: decision.engine,
        page_type: decision.page_type,
        tone: decision.tone,
        audience: decision.audience,
        palette: palette.colors,
        chosen: { ...applied, ...copy },
        copy: decision.copy,
        ...(brandReport ? { brand: brandReport } : {}),
        overridden,
        reasons,
      },
    };
  };
}

export type AiStep = ReturnType<typeof createAiStep>;
