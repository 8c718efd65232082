import { type BrandTitleFont, brandTitleFont, projectTitleFont, webFontOf } from '../brand/brand-font.ts';
import type { PageCapture } from '../browser/page-capture-options.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { AiPlan } from './ai-plan.ts';
import type { AiCopy, AiProvider, ChosenFields, PageSignals } from './ai-types.ts';
import { brandFields, brandOfPage } from './brand-fields.ts';
import { readScreenshot } from './screenshot-palette.ts';

/**
 * What the AI step decided: its choices, before the request's explicit fields are laid over them
 * (that, and the style it gives, is the resolver's: captures/resolve/ai-overlay.ts), and what the
 * result reports of the decision.
 */
export interface AiChoices {
  /** Styling chosen by the provider, then the brand's fields over it. */
  chosen: ChosenFields;
  /** The copy the provider wrote (headline, subtitle, badge; null where it wrote none). */
  copy: AiCopy;
  /** A brand's own title face, registered under this family name (set after resolution). */
  ownTitleFont: string | null;
  /** Reported as is in `ai_decisions`. */
  report: {
    engine: string;
    page_type: string;
    tone: string;
    audience: string;
    palette: string[];
    brand: Record<string, unknown> | null;
  };
  /** Why each choice was made (the provider's, then the brand's). */
  reasons: string[];
  warnings: string[];
}

/**
 * The AI step of a render: after the page is captured (its signals gathered in the same load) and
 * before compose. Asks the provider and applies the brand; returns the choices. It resolves
 * nothing: the capture service's resolver lays the request's fixed fields over them.
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
  return async (plan: AiPlan, capture: PageCapture, signal: AbortSignal): Promise<AiChoices> => {
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
      const titleFont = !plan.fixed.includes('title_font')
        ? await brandFontFor(plan, signals, deps, signal)
        : null;
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
    return {
      chosen,
      copy: decision.copy,
      ownTitleFont: ownFont,
      report: {
        engine: decision.engine,
        page_type: decision.page_type,
        tone: decision.tone,
        audience: decision.audience,
        palette: palette.colors,
        brand: brandReport,
      },
      reasons,
      warnings: decision.warnings,
    };
  };
}

export type AiStep = ReturnType<typeof createAiStep>;
