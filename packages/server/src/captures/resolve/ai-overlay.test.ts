import { describe, expect, it } from 'vitest';
import type { AiChoices } from '../../ai/ai-step.ts';
import { fixedFieldsOf } from './ai-overlay.ts';
import { applyAiChoices } from './resolve-capture.ts';
import { resolveOutput, resolveStyle, type StyleRequest } from './resolve-style.ts';

/** Requests whose fields resolve to something other than the text given, or interact. */
const REQUESTS: StyleRequest[] = [
  {},
  { padding: 0, background_style: 'none' },
  { background_color: '#fff' },
  { background_color: '#fff', background_preset: 'ocean' },
  { background_color: '#fff', background_gradient: 'linear-gradient(red, blue)' },
  { background_preset: 'custom', background_gradient: 'radial-gradient(#111, #eee)' },
  { background_style: 'solid', background_preset: 'ocean' },
  { background: 'topographic/topographic-01', background_image_url: 'https://example.com/a.png' },
  { background_style: 'transparent', output: { format: 'webp', width: 800, dpr: 2 } },
  { title: 'Hi', title_font: 'inter', subtitle: 'x', subtitle_font: 'serif', text_content: 'T' },
  { device: 'iphone-16-pro', device_color: 'Desert-Titanium' },
  { device: 'browser-macos', device_color: '#1e3a8a' },
  { device_color: 'silver' },
  { shadow: 'glow', background_preset: 'arctic', shadow_color: 'red' },
  { border_width: 4 },
  { border: 'glass', border_color: 'rgba(255,255,255,0.5)' },
  { camera_preset: 'detail', perspective: 'tilt-up', zoom: 2, perspective_intensity: 0.5 },
  { perspective: 'tilt-left', depth_blur: 40, depth_blur_band: 0.2 },
  { text_size: 20, text_fit_min: 12, text_enabled: false, text_content: 'x' },
  { title_position: 'overlay-bottom', title: 'x', compose_mode: 'browser', aspect_ratio: '16:9' },
];

const fixedOf = (r: StyleRequest) => Object.keys(r).filter((k) => k !== 'output');

describe('the AI overlay reads the fixed fields back from the resolved style', () => {
  it.each(REQUESTS.map((r) => [JSON.stringify(r), r] as const))('%s resolves to itself', (_, request) => {
    const output = resolveOutput(request.output);
    const style = resolveStyle(request, output);
    expect(resolveStyle(fixedFieldsOf(style, fixedOf(request)), output)).toEqual(style);
  });

  const choices = (chosen: AiChoices['chosen'], headline: string | null = null): AiChoices => ({
    chosen,
    copy: { headline, subtitle: null, badge: 'New' },
    ownTitleFont: null,
    report: { engine: 'test', page_type: 'saas', tone: 'calm', audience: 'x', palette: [], brand: null },
    reasons: ['because'],
    warnings: [],
  });

  it('lays the choices under the fixed fields and reports what the request kept', () => {
    const request: StyleRequest = { padding: 10, background_color: '#000', title: 'Mine' };
    const output = resolveOutput(undefined);
    const plan = {
      style: resolveStyle(request, output),
      output,
      ai: {
        style: true,
        copy: true,
        brand: false,
        prompt: null,
        fixed: fixedOf(request),
        projectBrand: null,
      },
    };
    const overlay = applyAiChoices(
      plan,
      choices({ padding: 96, background_preset: 'ember', shadow: 'float' }, 'Theirs'),
    );
    expect(overlay.style).toEqual(
      resolveStyle({ shadow: 'float', badge: 'New', padding: 10, background_color: '#000', title: 'Mine' }),
    );
    expect(overlay.decisions.chosen).toEqual({ shadow: 'float', badge: 'New' });
    expect(overlay.decisions.overridden).toEqual(['padding', 'background_preset', 'title']);
    expect(overlay.decisions.reasons).toEqual([
      'because',
      'explicit request fields kept: padding, background_preset, title',
    ]);
  });
});
