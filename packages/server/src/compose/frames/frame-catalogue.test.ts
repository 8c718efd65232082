import { DEVICES } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../../captures/resolve/resolve-style.ts';
import { buildScene } from '../scene.ts';
import { FINISH_COLORS } from './device-finish.ts';
import { deviceCaptureDefaults, FRAME_CATALOGUE } from './frame-catalogue.ts';
import { frameLayout } from './frame-geometry.ts';

const page = { url: 'https://www.example.com/pricing?plan=pro', title: 'Pricing — Example' };
const sceneFor = (device: (typeof DEVICES)[number], shot = { width: 1440, height: 900, dpr: 1 }) =>
  buildScene(resolveStyle({ device }), { ...shot, ...page });

describe('the issue 38 catalogue', () => {
  it('has at least 15 frames, the five of the interface first and unchanged in name', () => {
    expect(DEVICES.length).toBeGreaterThanOrEqual(15);
    expect(DEVICES.slice(0, 5)).toEqual([
      'iphone-16-pro',
      'macbook-pro-16',
      'ipad-pro-m4',
      'browser-macos',
      'browser-windows',
    ]);
    expect(new Set(DEVICES.map((d) => FRAME_CATALOGUE[d].family))).toEqual(
      new Set(['phone', 'tablet', 'laptop', 'desktop', 'watch', 'browser', 'terminal']),
    );
  });

  it.each(DEVICES)('%s: every named finish has a colour, and the spec names itself', (device) => {
    const spec = FRAME_CATALOGUE[device];
    expect(spec.device).toBe(device);
    for (const finish of spec.finishes) expect(FINISH_COLORS[finish], finish).toMatch(/^#[0-9A-F]{6}$/i);
  });

  it('applies each device its own capture settings: Android phones with Chrome for Android', () => {
    expect(deviceCaptureDefaults('pixel-9')).toMatchObject({
      viewport: { width: 412, height: 879 },
      dpr: 2.625,
      isMobile: true,
      hasTouch: true,
    });
    expect(deviceCaptureDefaults('galaxy-s25')).toMatchObject({
      viewport: { width: 360, height: 744 },
      dpr: 3,
    });
    for (const d of ['pixel-9', 'galaxy-s25'] as const)
      expect(deviceCaptureDefaults(d).userAgent).toMatch(/Android .* Mobile Safari/);
    expect(deviceCaptureDefaults('android-tablet').userAgent).toMatch(/Android/);
    expect(deviceCaptureDefaults('android-tablet').userAgent).not.toMatch(/Mobile/);
    expect(deviceCaptureDefaults('laptop-windows')).toMatchObject({
      viewport: { width: 1536, height: 864 },
      dpr: 1.25,
      isMobile: false,
    });
    expect(deviceCaptureDefaults('laptop-windows').userAgent).toMatch(/Windows NT/);
    expect(deviceCaptureDefaults('macbook-air-13').viewport).toEqual({ width: 1470, height: 919 });
    expect(deviceCaptureDefaults('watch')).toMatchObject({
      viewport: { width: 198, height: 242 },
      isMobile: true,
    });
  });

  it('puts each screen at its real size: the viewport plus the status or menu bar', () => {
    const screens = {
      'iphone-16': [393, 852],
      'pixel-9': [412, 923],
      'galaxy-s25': [360, 780],
      'ipad-air-11': [820, 1180],
      'android-tablet': [800, 1280],
      'macbook-air-13': [1470, 956],
      'laptop-windows': [1536, 864],
      'desktop-display': [2240, 1260],
      watch: [198, 242],
    } as const;
    for (const [device, [w, h]] of Object.entries(screens)) {
      const spec = FRAME_CATALOGUE[device as keyof typeof screens];
      const { screen } = frameLayout(spec, spec.viewport.width, spec.viewport.height);
      expect([screen.width, screen.height], device).toEqual([w, h]);
    }
  });

  it.each(['pixel-9', 'galaxy-s25', 'android-tablet'] as const)(
    '%s: the Android status bar has the time at the left, centred on the bar',
    (device) => {
      const spec = FRAME_CATALOGUE[device];
      const s = sceneFor(device, { ...spec.viewport, dpr: 1 });
      const bar = s.device?.bar?.rect;
      const time = s.texts.find((t) => t.role === 'device' && t.lines[0] === '9:41');
      if (!bar || !time) throw new Error('no status bar');
      expect(time.box.x).toBeGreaterThan(bar.x + 8);
      // Well left of the punch-hole camera in the middle.
      expect(time.box.x + time.box.width).toBeLessThan(bar.x + bar.width / 2 - 20);
      expect(Math.abs(time.box.y + time.box.height / 2 - (bar.y + bar.height / 2))).toBeLessThan(1);
    },
  );

  it('gives the Windows laptop and the watch no system bar; the desktop display a menu bar', () => {
    expect(sceneFor('laptop-windows').device?.bar).toBeNull();
    expect(sceneFor('watch', { width: 198, height: 242, dpr: 1 }).device?.bar).toBeNull();
    const display = sceneFor('desktop-display', { width: 2240, height: 1235, dpr: 1 });
    expect(display.device?.bar?.rect.height).toBe(25);
    expect(display.texts.map((t) => t.lines[0])).toContain('Help');
  });

  it('casts the shadow from the stand of the display and the band of the watch', () => {
    const display = FRAME_CATALOGUE['desktop-display'];
    const d = frameLayout(display, display.viewport.width, display.viewport.height);
    expect(d.silhouette).toHaveLength(3);
    const [body, neck, foot] = d.silhouette.map((p) => p.rect) as [
      (typeof d.silhouette)[0]['rect'],
      (typeof d.silhouette)[0]['rect'],
      (typeof d.silhouette)[0]['rect'],
    ];
    expect(neck.y).toBe(body.y + body.height);
    expect(neck.x + neck.width / 2).toBeCloseTo(body.x + body.width / 2);
    expect(foot.y + foot.height).toBe(d.height);
    const watch = FRAME_CATALOGUE.watch;
    const w = frameLayout(watch, watch.viewport.width, watch.viewport.height);
    expect(w.silhouette).toHaveLength(3);
    expect(w.silhouette[1]?.rect.y).toBe(0);
    const lower = w.silhouette[2]?.rect;
    expect((lower?.y ?? 0) + (lower?.height ?? 0)).toBe(w.height);
  });

  it('shows the page title and URL in the minimal browser, the title in the terminal', () => {
    const minimal = sceneFor('browser-minimal').texts.map((t) => t.lines[0]);
    expect(minimal).toEqual(expect.arrayContaining(['Pricing — Example', 'example.com/pricing?plan=pro']));
    const terminal = sceneFor('terminal').texts.map((t) => t.lines[0]);
    expect(terminal).toEqual(['Pricing — Example']);
    // A window follows the capture: 1440x900 CSS px below the bar.
    const t = sceneFor('terminal').device;
    expect(t?.screen.rect).toMatchObject({ width: 1440, height: 900 });
  });
});
