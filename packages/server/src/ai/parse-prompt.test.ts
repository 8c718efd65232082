import { describe, expect, it } from 'vitest';
import { parsePrompt } from './parse-prompt.ts';

describe('parsePrompt', () => {
  it('maps the plain-language example onto contract fields and a headline topic', () => {
    const parsed = parsePrompt('dark, cinematic, tilt left, big headline about speed');
    expect(parsed.fields).toEqual({
      background_preset: 'midnight',
      camera_preset: 'cinematic',
      perspective: 'tilt-left',
      title_size: 72,
    });
    expect(parsed.headlineTopic).toBe('speed');
  });

  it('knows devices, ratios, shadows and spacing; a stronger phrase wins', () => {
    expect(parsePrompt('on an iPhone, square, glowing, roomy').fields).toEqual({
      device: 'iphone-16-pro',
      aspect_ratio: '1:1',
      shadow: 'glow',
      padding: 128,
    });
    expect(parsePrompt('dramatic tilt right').fields.perspective).toBe('tilt-right-strong');
  });

  it('ignores words it does not know, and says so', () => {
    const parsed = parsePrompt('make it pop like a banana smoothie');
    expect(parsed.fields).toEqual({});
    expect(parsed.headlineTopic).toBeNull();
    expect(parsed.reasons).toEqual(['prompt: no styling phrase recognised']);
  });
});
