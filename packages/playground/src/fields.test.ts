import { CAPTURE_DEFAULTS, COMPOSE_LIMITS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { buildFieldGroups } from './fields.ts';

describe('controls generated from the contract', () => {
  const groups = buildFieldGroups();
  const field = (path: string) => groups.flatMap((g) => g.fields).find((f) => f.path.join('.') === path);

  it('groups the fields as interface.md does and leaves out what the playground sets itself', () => {
    expect(groups.map((g) => g.title)).toEqual([
      'Target and browser',
      'Device frame',
      'Background',
      'Geometry, border and shadow',
      'Perspective and camera',
      'Depth blur',
      'Title, subtitle, badge',
      'Free text overlay',
      'AI assistance',
      'Output',
      'Motion (video)',
      'Scene (several shots)',
    ]);
    expect(field('scene.layout')).toMatchObject({ kind: 'chips', defaultValue: 'side-by-side' });
    for (const hidden of ['url', 'site', 'project_id', 'async', 'webhook_url'])
      expect(field(hidden)).toBeUndefined();
  });

  it('picks controls by type, with the contract ranges and defaults', () => {
    expect(field('background_preset')).toMatchObject({ kind: 'chips', defaultValue: 'aurora' });
    expect(field('shadow')).toMatchObject({ kind: 'chips', defaultValue: CAPTURE_DEFAULTS.shadow });
    expect(field('depth_blur')).toMatchObject({
      kind: 'slider',
      min: COMPOSE_LIMITS.depthBlur.min,
      max: COMPOSE_LIMITS.depthBlur.max,
    });
    expect(field('dark_mode')).toMatchObject({ kind: 'boolean', defaultValue: false });
    expect(field('viewport')).toMatchObject({ kind: 'viewport' });
    expect(field('background_color')).toMatchObject({ kind: 'color' });
    expect(field('output.format')).toMatchObject({
      kind: 'chips',
      options: ['png', 'webp', 'jpg', 'avif', 'mp4', 'webm', 'gif'],
    });
    expect(field('motion.type')).toMatchObject({ kind: 'chips', options: ['scroll', 'reveal', 'float'] });
    expect(field('motion.duration')).toMatchObject({ kind: 'slider', min: 1, max: 20 });
    expect(field('output.dpr')).toMatchObject({ kind: 'chips', options: [1, 2, 3], defaultValue: 1 });
    expect(field('block')).toMatchObject({ kind: 'list' });
  });

  it('offers the capture controls of issue 40 in Target and browser', () => {
    const target = groups.find((g) => g.id === 'target')!.fields.map((f) => f.path.join('.'));
    expect(target).toEqual(
      expect.arrayContaining([
        'actions',
        'headers',
        'locale',
        'timezone',
        'geolocation',
        'reduced_motion',
        'color_scheme',
        'cookies',
        'html',
        'css',
        'metadata',
      ]),
    );
    expect(field('actions')).toMatchObject({ kind: 'json' });
    expect(field('geolocation')).toMatchObject({ kind: 'json' });
    expect(field('html')).toMatchObject({ kind: 'code' });
    expect(field('css')).toMatchObject({ kind: 'code' });
    expect(field('color_scheme')).toMatchObject({ kind: 'chips', options: ['light', 'dark'] });
    expect(field('metadata')).toMatchObject({ kind: 'boolean', defaultValue: false });
  });
});
