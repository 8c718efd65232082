import type { AiDecision, AiInput, AiProvider, ChosenFields, PageType, Tone } from './ai-types.ts';
import { audienceOf, classifyPage, toneOf } from './classify-page.ts';
import { parsePrompt } from './parse-prompt.ts';
import { COPY_LIMITS, shorten, writeCopy } from './write-copy.ts';

/** The composition each page type suits: how it is framed and lit. */
const BY_TYPE: Record<PageType, ChosenFields> = {
  landing: { camera_preset: 'hero', shadow: 'float', background_preset: 'aurora' },
  dashboard: { camera_preset: 'dashboard', shadow: 'soft', background_preset: 'ocean' },
  docs: { camera_preset: 'flat', shadow: 'soft', border: 'subtle', background_preset: 'arctic' },
  'e-commerce': { camera_preset: 'hero', shadow: 'float', background_preset: 'sunset' },
  blog: { camera_preset: 'flat', shadow: 'soft', background_preset: 'forest' },
  pricing: { camera_preset: 'hero', shadow: 'float', background_preset: 'dusk' },
  portfolio: { camera_preset: 'cinematic', shadow: 'hard', background_preset: 'ember' },
  // A sign-in page is a small centred form: a flat, quiet frame (the close-up camera crops it).
  'app-sign-in': { camera_preset: 'flat', shadow: 'glow', background_preset: 'midnight', padding: 96 },
};

/** Tone adjusts the background so the page sits well on it: dark pages on dark, minimal on quiet. */
function toneFields(tone: Tone, type: PageType): ChosenFields {
  if (tone === 'dark') return { background_preset: type === 'pricing' ? 'dusk' : 'midnight', shadow: 'glow' };
  if (tone === 'minimal') return { background_preset: 'arctic', border: 'subtle' };
  return {};
}

/**
 * The built-in engine: no network, deterministic. Page type from the DOM, tone from the
 * screenshot's palette, a preset per type and tone, copy from the page's own words, and the
 * prompt's phrases laid over the style it chose.
 */
export function createBuiltinProvider(): AiProvider {
  return {
    name: 'builtin',
    async decide(input: AiInput): Promise<AiDecision> {
      return decideBuiltin(input);
    },
    async chooseElement() {
      // The element resolver's own scoring decides; the built-in engine adds nothing to it.
      return null;
    },
  };
}

export function decideBuiltin(input: AiInput): AiDecision {
  const { type, reasons } = classifyPage(input.signals);
  const { tone, reason } = toneOf(input.palette);
  const decision: AiDecision = {
    engine: 'builtin',
    page_type: type,
    tone,
    audience: audienceOf(type),
    chosen: {},
    copy: { headline: null, subtitle: null, badge: null },
    reasons: [...reasons, reason],
    warnings: [],
  };
  const prompt = input.prompt ? parsePrompt(input.prompt) : null;
  if (input.style) {
    decision.chosen = { ...BY_TYPE[type], ...toneFields(tone, type) };
    decision.reasons.push(`style for a ${tone} ${type} page: ${JSON.stringify(decision.chosen)}`);
  }
  if (prompt) {
    decision.chosen = { ...decision.chosen, ...prompt.fields };
    decision.reasons.push(...prompt.reasons);
  }
  if (input.copy || prompt?.headlineTopic) {
    decision.copy = writeCopy(input.signals, type);
    if (prompt?.headlineTopic) {
      const name =
        input.signals.ogSiteName ?? input.signals.title.split(/\s+[|\u2013\u2014:-]\s+/).pop() ?? '';
      decision.copy.headline = shorten(
        `${capitalise(prompt.headlineTopic)}${name ? `, built into ${name.trim()}` : ''}`,
        COPY_LIMITS.headline,
      );
    }
    decision.reasons.push('copy from the title, h1, meta description and Open Graph tags');
  }
  return decision;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
