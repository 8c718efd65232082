import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSyncFile, SyncConfigError } from './sync-config.ts';

const problemsOf = (text: string) => {
  try {
    parseSyncFile(text, 'vitrine.yml');
  } catch (error) {
    if (error instanceof SyncConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected problems');
};

describe('vitrine.yml', () => {
  it('builds each render: defaults, then the look, then the shot; the extension sets the format; dark_path adds dark_mode', () => {
    const plan = parseSyncFile(
      [
        'output: out',
        'defaults:',
        '  padding: 8',
        '  viewport: { width: 800, height: 600 }',
        'looks:',
        '  hero: { padding: 64, background_preset: sunset }',
        'shots:',
        '  - url: https://example.com',
        '    look: hero',
        '    path: home.png',
        '    dark_path: dark/home.webp',
        '  - url: example.com/pricing',
        '    path: pricing.jpg',
        '    padding: 16',
        '    cache_ttl: 3600',
      ].join('\n'),
      '/tmp/site/vitrine.yml',
    );
    expect(plan.outputDir).toBe(path.resolve('/tmp/site/out'));
    expect(plan.renders.map((r) => [r.path, r.dark, r.line])).toEqual([
      ['home.png', false, 8],
      ['dark/home.webp', true, 8],
      ['pricing.jpg', false, 12],
    ]);
    expect(plan.renders[0]!.request).toEqual({
      url: 'https://example.com',
      padding: 64,
      background_preset: 'sunset',
      viewport: { width: 800, height: 600 },
      output: { format: 'png' },
      cache_ttl: 0,
    });
    expect(plan.renders[1]!.request).toMatchObject({ dark_mode: true, output: { format: 'webp' } });
    expect(plan.renders[2]!.request).toMatchObject({
      padding: 16,
      cache_ttl: 3600,
      output: { format: 'jpg' },
    });
  });

  it('reports each problem at its line and column', () => {
    const problems = problemsOf(
      [
        'defaults:',
        '  shadow: huge', // line 2: a bad value in defaults, reported where it is written
        'shots:',
        '  - url: https://example.com',
        '    path: a.png',
        '  - url: https://example.com',
        '    path: a.png', // line 7: the same output path twice
        '  - url: https://example.com',
        '    path: b.bmp', // line 9: an extension that is no format
        '    colour: red', // unknown top-level shot key: a capture field that does not exist
      ].join('\n'),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 9, message: expect.stringContaining('shots.2.path') }),
      ]),
    );
    const second = problemsOf(
      [
        'defaults:',
        '  shadow: huge',
        'shots:',
        '  - url: https://example.com',
        '    path: a.png',
        '  - url: https://example.com',
        '    path: a.png',
        '  - url: https://example.com',
        '    path: b.png',
        '    colour: red',
        '    async: true',
      ].join('\n'),
    );
    expect(second.map((p) => p.line)).toEqual(expect.arrayContaining([2, 7, 10]));
    expect(second.find((p) => p.line === 7)!.message).toContain('also written by the shot on line 4');
    expect(second.find((p) => p.line === 10)!.message).toContain('colour');
  });

  it('refuses unknown top-level keys and YAML syntax errors with their place', () => {
    expect(problemsOf('shots:\n  - url: x\n    path: a.png\nshot_list: []\n')[0]).toMatchObject({
      line: 4,
      message: expect.stringContaining('unknown key shot_list'),
    });
    expect(problemsOf('shots:\n  - url: "unclosed\n')[0]!.line).toBeGreaterThan(0);
    expect(problemsOf('shots: []\n')[0]).toMatchObject({ message: expect.stringContaining('shots') });
  });
});
