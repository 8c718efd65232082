import type { ChosenFields } from './ai-types.ts';

/** What a plain-language request asks for: fields, and a topic for the headline. */
export interface ParsedPrompt {
  fields: ChosenFields;
  /** "big headline about speed" -> "speed". */
  headlineTopic: string | null;
  /** Which phrase set which field, for ai_decisions.reasons. */
  reasons: string[];
}

type Rule = [RegExp, ChosenFields];

/** Phrase -> fields, checked in order; a later, more specific phrase wins for the same field. */
const RULES: Rule[] = [
  [/\b(dark|night|moody|black)\b/, { background_preset: 'midnight' }],
  [/\b(light|bright|clean|white)\b/, { background_preset: 'arctic' }],
  [/\b(warm|sunset|orange|pink)\b/, { background_preset: 'sunset' }],
  [/\b(ocean|blue|cool|calm)\b/, { background_preset: 'ocean' }],
  [/\b(forest|green|nature)\b/, { background_preset: 'forest' }],
  [/\b(ember|red|fire|fiery)\b/, { background_preset: 'ember' }],
  [/\b(dusk|purple|violet)\b/, { background_preset: 'dusk' }],
  [/\b(aurora|vibrant|colou?rful)\b/, { background_preset: 'aurora' }],
  [/\bcinematic\b/, { camera_preset: 'cinematic' }],
  [/\bhero\b/, { camera_preset: 'hero' }],
  [/\bflat\b/, { camera_preset: 'flat' }],
  [/\b(close[- ]?up|detail|zoom(ed)? in)\b/, { camera_preset: 'detail' }],
  [/\btilt(ed)? (to the )?left\b/, { perspective: 'tilt-left' }],
  [/\btilt(ed)? (to the )?right\b/, { perspective: 'tilt-right' }],
  [/\btilt(ed)? up\b/, { perspective: 'tilt-up' }],
  [/\btilt(ed)? down\b/, { perspective: 'tilt-down' }],
  [
    /\b(strong|dramatic|steep) tilt (to the )?left\b|\btilt(ed)? (to the )?left,? (strong|dramatic)/,
    { perspective: 'tilt-left-strong' },
  ],
  [
    /\b(strong|dramatic|steep) tilt (to the )?right\b|\btilt(ed)? (to the )?right,? (strong|dramatic)/,
    { perspective: 'tilt-right-strong' },
  ],
  [/\biso(metric)? left\b/, { perspective: 'iso-left' }],
  [/\biso(metric)? right\b|\bisometric\b/, { perspective: 'iso-right' }],
  [/\bglow(ing)?\b/, { shadow: 'glow' }],
  [/\bfloat(ing)?\b/, { shadow: 'float' }],
  [/\bhard shadow\b/, { shadow: 'hard' }],
  [/\bsoft shadow\b/, { shadow: 'soft' }],
  [/\bno shadow\b/, { shadow: 'none' }],
  [/\bglass(y)?\b/, { border: 'glass' }],
  [/\b(iphone|phone|mobile)\b/, { device: 'iphone-16-pro' }],
  [/\b(macbook|laptop)\b/, { device: 'macbook-pro-16' }],
  [/\b(ipad|tablet)\b/, { device: 'ipad-pro-m4' }],
  [/\bbrowser (frame|window)\b/, { device: 'browser-macos' }],
  [/\bsquare\b|\b1:1\b/, { aspect_ratio: '1:1' }],
  [/\b(portrait|story|stories|9:16)\b/, { aspect_ratio: '9:16' }],
  [/\b(widescreen|wide|16:9)\b/, { aspect_ratio: '16:9' }],
  [/\b(tight|compact|snug)\b/, { padding: 32 }],
  [/\b(roomy|spacious|airy|generous)\b/, { padding: 128 }],
  [/\bsharp corners?\b|\bsquare corners?\b/, { corner_radius: 0 }],
  [/\b(very )?rounded\b/, { corner_radius: 24 }],
  [/\b(big|large|huge|bold) (headline|title)\b/, { title_size: 72 }],
  [/\b(small|subtle) (headline|title)\b/, { title_size: 36 }],
];

/**
 * Maps a plain-language styling request ("dark, cinematic, tilt left, big headline about speed")
 * onto the contract's fields. Deterministic: the same words always give the same fields; words it
 * does not know are ignored (and said so in the reasons).
 */
export function parsePrompt(prompt: string): ParsedPrompt {
  const text = prompt.toLowerCase();
  const fields: ChosenFields = {};
  const reasons: string[] = [];
  for (const [pattern, set] of RULES) {
    const match = text.match(pattern);
    if (!match) continue;
    Object.assign(fields, set);
    reasons.push(
      `prompt "${match[0]}" -> ${Object.entries(set)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}`,
    );
  }
  const topic = text.match(/\b(?:headline|title|copy|tagline)\s+(?:about|on|for|highlighting)\s+([^,.;]+)/);
  const headlineTopic = topic?.[1]?.trim().slice(0, 40) || null;
  if (headlineTopic) reasons.push(`prompt asks for a headline about "${headlineTopic}"`);
  if (reasons.length === 0) reasons.push('prompt: no styling phrase recognised');
  return { fields, headlineTopic, reasons };
}
