/**
 * The AI overlay rules: the AI step's choices laid under the fields the caller fixed (explicit
 * fields always win), as the request the resolver resolves (applyAiChoices in
 * resolve-capture.ts, the one caller of resolveStyle), and what `ai_decisions` reports. It works
 * on the plan, never a request: the fixed fields' values are read back from the resolved style.
 */
import type { AiPlan } from '../../ai/ai-plan.ts';
import type { AiChoices } from '../../ai/ai-step.ts';
import type { ChosenFields } from '../../ai/ai-types.ts';
import type { ResolvedStyle } from '../../compose/index.ts';
import type { StyleRequest } from './style-request.ts';

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

/** The copy fields, and the AI's name for each. */
const COPY_FIELDS = [
  ['title', 'headline'],
  ['subtitle', 'subtitle'],
  ['badge', 'badge'],
] as const;

/** The AI choices the fixed fields leave open, and the ones they override. */
function openChoices(chosen: ChosenFields, fixed: ReadonlySet<string>) {
  const applied: Record<string, unknown> = {};
  const overridden: string[] = [];
  for (const [field, value] of Object.entries(chosen)) {
    const owners = OWNED_BY[field] ?? [field];
    if (owners.some((f) => fixed.has(f))) overridden.push(field);
    else applied[field] = value;
  }
  return { applied, overridden };
}

/**
 * The fixed fields as request fields again, from the plan's resolved style: a field the caller
 * set resolves to itself (the resolver is idempotent on its own output, which
 * ai-overlay.test.ts checks). A field that resolved to null (e.g. a colour a gradient
 * background ignores) is left out, as it changed nothing.
 */
export function fixedFieldsOf(style: ResolvedStyle, fixed: readonly string[]): StyleRequest {
  const request: Record<string, unknown> = {};
  for (const field of fixed) {
    const value = (style as unknown as Record<string, unknown>)[field];
    if (value !== null && value !== undefined) request[field] = value;
  }
  return request as StyleRequest;
}

/** The AI's style, and what `ai_decisions` and the warnings report of it. */
export interface AiOverlay {
  style: ResolvedStyle;
  decisions: Record<string, unknown>;
  warnings: string[];
}

/** The choices laid under the fixed fields: the request to resolve, and what to report. */
export interface LaidChoices {
  request: StyleRequest;
  chosen: Record<string, unknown>;
  overridden: string[];
}

/** Lays the AI step's choices under the plan's fixed fields (explicit fields always win). */
export function layChoices(plan: { style: ResolvedStyle; ai: AiPlan }, choices: AiChoices): LaidChoices {
  const fixed = new Set(plan.ai.fixed);
  const { applied, overridden } = openChoices(choices.chosen, fixed);
  const copy: Record<string, unknown> = {};
  if (plan.ai.copy || choices.copy.headline !== null) {
    for (const [field, from] of COPY_FIELDS) {
      const written = choices.copy[from];
      if (written && !fixed.has(field)) copy[field] = written;
    }
    for (const [field] of COPY_FIELDS) if (fixed.has(field)) overridden.push(field);
  }
  return {
    request: { ...applied, ...copy, ...fixedFieldsOf(plan.style, plan.ai.fixed) } as StyleRequest,
    chosen: { ...applied, ...copy },
    overridden,
  };
}

/** The style composed (the brand's own title face set on it) and the `ai_decisions` reported. */
export function overlayOutcome(resolved: ResolvedStyle, choices: AiChoices, laid: LaidChoices): AiOverlay {
  // A brand's own face is registered under its own name (font-families.ts), which no request
  // field may name: it is set on the resolved style, after the request's fields were checked.
  const style = choices.ownTitleFont ? { ...resolved, title_font: choices.ownTitleFont } : resolved;
  const { overridden } = laid;
  const reasons = [...choices.reasons];
  if (overridden.length > 0) reasons.push(`explicit request fields kept: ${overridden.join(', ')}`);
  const { report } = choices;
  return {
    style,
    warnings: choices.warnings,
    decisions: {
      engine: report.engine,
      page_type: report.page_type,
      tone: report.tone,
      audience: report.audience,
      palette: report.palette,
      chosen: laid.chosen,
      copy: choices.copy,
      ...(report.brand ? { brand: report.brand } : {}),
      overridden,
      reasons,
    },
  };
}
