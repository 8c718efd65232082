import { Resvg } from '@resvg/resvg-js';
import { DEVICES } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../../captures/resolve/resolve-style.ts';
import { AppError } from '../../errors/app-error.ts';
import { buildScene } from '../scene.ts';
import { displayUrl } from './browser-chrome.ts';
import { resolveDeviceFinish } from './device-finish.ts';
import { deviceCaptureDefaults, FRAME_CATALOGUE } from './frame-catalogue.ts';
import { coverCropTop, frameLayout } from './frame-geometry.ts';
import { systemBarColors } from './system-bar.ts';

const page = { url: 'https://www.example.com/pricing?plan=pro', title: 'Pricing — Example' };
const sceneFor = (
  device: (typeof DEVICES)[number],
  extra = {},
  shot = { width: 1440, height: 900, dpr: 1 },
) => buildScene(resolveStyle({ device, ...extra }), { ...shot, ...page });

describe('frame catalogue', () => {
  it('gives every device capture defaults a capture can apply', () => {
    expect(deviceCaptureDefaults('iphone-16-pro')).toMatchObject({
      viewport: { width: 402, height: 812 },
      dpr: 3,
      isMobile: true,
      hasTouch: true,
    });
    expect(deviceCaptureDefaults('iphone-16-pro').userAgent).toMatch(/iPhone OS .* Mobile\/.* Safari/);
    expect(deviceCaptureDefaults('macbook-pro-16')).toMatchObject({
      viewport: { width: 1728, height: 1080 },
      dpr: 2,
      isMobile: false,
      hasTouch: false,
    });
    expect(deviceCaptureDefaults('ipad-pro-m4')).toMatchObject({
      viewport: { width: 1032, height: 1352 },
      dpr: 2,
      hasTouch: true,
    });
    for (const d of ['browser-macos', 'browser-windows'] as const)
      expect(deviceCaptureDefaults(d)).toMatchObject({
        viewport: { width: 1440, height: 900 },
        dpr: 1,
        isMobile: false,
      });
  });

  it.each(DEVICES)('%s: the screen sits inside the body, which sits inside the device', (device) => {
    const spec = FRAME_CATALOGUE[device];
    const f = frameLayout(spec, spec.viewport.width, spec.viewport.height);
    const { screen, body } = f;
    expect(screen.x).toBeGreaterThanOrEqual(body.rect.x);
    expect(screen.y).toBeGreaterThanOrEqual(body.rect.y);
    expect(screen.x + screen.width).toBeLessThanOrEqual(body.rect.x + body.rect.width);
    expect(screen.y + screen.height).toBeLessThanOrEqual(body.rect.y + body.rect.height);
    expect(body.rect.x + body.rect.width).toBeLessThanOrEqual(f.width);
    expect(body.rect.y + body.rect.height).toBeLessThanOrEqual(f.height);
    expect(spec.finishes.length).toBeGreaterThan(1);
  });

  it('puts the system bar above the page: the screen is the real display, the viewport what is under the bar', () => {
    const screens = {
      'iphone-16-pro': [402, 874, 62],
      'macbook-pro-16': [1728, 1117, 37],
      'ipad-pro-m4': [1032, 1376, 24],
    };
    for (const [device, [w, h, bar]] of Object.entries(screens)) {
      const spec = FRAME_CATALOGUE[device as keyof typeof screens];
      const f = frameLayout(spec, spec.viewport.width, spec.viewport.height);
      expect([f.screen.width, f.screen.height]).toEqual([w, h]);
      expect(f.bar).toEqual({ ...f.screen, height: bar });
      expect(f.page).toEqual({ ...f.screen, y: f.screen.y + (bar as number), height: spec.viewport.height });
      expect(f.pageRadii.slice(0, 2)).toEqual([0, 0]);
      expect(f.pageRadii.slice(2)).toEqual(spec.screenRadii.slice(2));
    }
    const window = frameLayout(FRAME_CATALOGUE['browser-macos'], 1000, 600);
    expect(window.bar).toBeNull();
    expect(window.page).toEqual(window.screen);
    expect(window.pageRadii).toEqual(window.screenRadii);
  });

  it('cover-crops from the top, centred horizontally', () => {
    expect(coverCropTop(1000, 3000, 1)).toEqual({ x: 0, y: 0, width: 1000, height: 1000 });
    expect(coverCropTop(2000, 1000, 1)).toEqual({ x: 500, y: 0, width: 1000, height: 1000 });
  });
});

describe('device_color', () => {
  it('accepts the named finishes and any CSS colour', () => {
    expect(resolveDeviceFinish('iphone-16-pro', null).name).toBe('black-titanium');
    expect(resolveDeviceFinish('iphone-16-pro', 'Desert-Titanium')).toMatchObject({
      name: 'desert-titanium',
      named: true,
    });
    expect(resolveDeviceFinish('macbook-pro-16', 'silver').tone).toBe('light');
    expect(resolveDeviceFinish('browser-macos', '#1e3a8a')).toMatchObject({ named: false, tone: 'dark' });
    expect(resolveStyle({ device: 'ipad-pro-m4' }).device_color).toBe('space-black');
  });

  it('rejects an unknown name with a 400 listing the device set', () => {
    const err = (() => {
      try {
        resolveStyle({ device: 'iphone-16-pro', device_color: 'space-black' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toMatch(
      /device_color.*black-titanium, white-titanium, natural-titanium, desert-titanium/,
    );
  });
});

describe('device scenes', () => {
  it('puts the screenshot into the screen below the status bar, cover-cropped from the top', () => {
    const s = sceneFor('iphone-16-pro', {}, { width: 1206, height: 4000, dpr: 3 });
    const d = s.device;
    if (!d?.bar) throw new Error('no device layer or no status bar');
    expect(s.screenshot.rect).toEqual(d.screen.rect);
    expect(s.screenshot.crop).toEqual({ x: 0, y: 0, width: 1206, height: 2436 });
    expect(d.screen.rect.width).toBe(402);
    expect(d.screen.rect.height).toBe(812);
    expect(d.bar.rect).toEqual({ ...d.screen.rect, y: d.screen.rect.y - 62, height: 62 });
    expect(s.screenshot.corners).toEqual([0, 0, 62, 62]);
    expect(s.unrendered).not.toContain('device');
    expect(d.svg).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
  });

  it('scales the device with device_scale and keeps padding around it', () => {
    const one = sceneFor('ipad-pro-m4');
    const half = sceneFor('ipad-pro-m4', { device_scale: 0.5 });
    expect(half.device?.rect.width).toBeCloseTo((one.device?.rect.width ?? 0) / 2, -1);
    expect(one.device?.rect.x).toBe(64);
    expect(one.canvas.width).toBe((one.device?.rect.width ?? 0) + 128);
  });

  it('runs the device off the bottom or top edge in the cropped layouts, on a shorter canvas', () => {
    const full = sceneFor('iphone-16-pro');
    const bottom = sceneFor('iphone-16-pro', { layout: 'bottom-cropped' });
    const top = sceneFor('iphone-16-pro', { layout: 'top-cropped' });
    const d = bottom.device?.rect;
    expect(bottom.canvas.height).toBeLessThan(full.canvas.height * 0.75);
    expect((d?.y ?? 0) + (d?.height ?? 0)).toBeGreaterThan(bottom.canvas.height);
    expect(Math.abs((d?.y ?? 0) - 64)).toBeLessThanOrEqual(1);
    expect(top.device?.rect.y).toBeLessThan(0);
    const topEnd = (top.device?.rect.y ?? 0) + (top.device?.rect.height ?? 0);
    expect(Math.abs(topEnd - (top.canvas.height - 64))).toBeLessThanOrEqual(1);
  });

  it('gives a browser window the capture size and shows the URL and title', () => {
    const s = sceneFor('browser-macos');
    expect(s.device?.screen.rect).toMatchObject({ width: 1440, height: 900 });
    expect(s.device?.screen.corners).toEqual([0, 0, 10, 10]);
    const labels = s.texts.filter((t) => t.role === 'device').map((t) => t.lines[0]);
    expect(labels).toEqual(['Pricing — Example', 'example.com/pricing?plan=pro']);
    expect(displayUrl('http://site.test/')).toBe('site.test');
  });

  it('shows an address in its own script, as a browser does', () => {
    expect(displayUrl('https://xn--r8jz45g.jp/%E3%83%80%E3%83%83%E3%82%B7%E3%83%A5')).toBe(
      '例え.jp/ダッシュ',
    );
    expect(displayUrl('https://www.пример.рф/путь?q=%D1%8F')).toBe('пример.рф/путь?q=я');
    // ASCII escapes stay escaped; a broken escape is left as it came; the port is kept.
    expect(displayUrl('http://127.0.0.2:8080/a%20b/%E3%83?x=%2F')).toBe('127.0.0.2:8080/a%20b/%E3%83?x=%2F');
  });

  it('casts the laptop shadow from both lid and base', () => {
    const s = sceneFor('macbook-pro-16');
    expect(s.device?.silhouette).toHaveLength(2);
    expect(s.shadows.length).toBe(2 * sceneFor('ipad-pro-m4').shadows.length);
  });

  it('a default device capture fills the page area exactly, at the device DPR', () => {
    for (const device of ['iphone-16-pro', 'macbook-pro-16', 'ipad-pro-m4'] as const) {
      const { viewport, dpr } = deviceCaptureDefaults(device);
      const shot = { width: viewport.width * dpr, height: viewport.height * dpr, dpr };
      const s = sceneFor(device, {}, shot);
      expect(s.screenshot.crop).toEqual({ x: 0, y: 0, width: shot.width, height: shot.height });
      expect([s.screenshot.rect.width, s.screenshot.rect.height]).toEqual([viewport.width, viewport.height]);
    }
  });

  it('tints the bar with the page top colour and picks black or white glyphs by contrast', () => {
    const dark = { r: 15, g: 23, b: 42, a: 1 };
    const s = buildScene(resolveStyle({ device: 'iphone-16-pro' }), {
      width: 402,
      height: 812,
      topColor: dark,
    });
    expect(s.device?.bar).toMatchObject({ background: dark, foreground: { r: 255, g: 255, b: 255 } });
    const time = s.texts.find((t) => t.role === 'device' && t.lines[0] === '9:41');
    expect(time?.color).toMatchObject({ r: 255, g: 255, b: 255 });
    const light = buildScene(resolveStyle({ device: 'iphone-16-pro' }), { width: 402, height: 812 });
    expect(light.device?.bar).toMatchObject({
      background: { r: 255, g: 255, b: 255 },
      foreground: { r: 0, g: 0, b: 0 },
    });
    expect(light.device?.svgKey).not.toBe(s.device?.svgKey);
    // The bar's fill in the SVG is the page colour.
    const d = s.device;
    if (!d?.bar) throw new Error('no bar');
    const img = new Resvg(d.svg, { fitTo: { mode: 'original' } }).render();
    const at = (x: number, y: number) => [
      ...img.pixels.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
    ];
    expect(at(d.bar.rect.x - d.rect.x + 90, d.bar.rect.y - d.rect.y + 4)).toEqual([15, 23, 42, 255]);
    expect(systemBarColors({ r: 120, g: 120, b: 120, a: 1 }).foreground).toMatchObject({ r: 0 });
    expect(systemBarColors({ r: 100, g: 100, b: 100, a: 1 }).foreground).toMatchObject({ r: 255 });
  });

  it('lays the bar text out around the island and the notch', () => {
    const phone = sceneFor('iphone-16-pro', {}, { width: 402, height: 812, dpr: 1 });
    const bar = phone.device?.bar?.rect;
    const time = phone.texts.find((t) => t.lines[0] === '9:41');
    if (!bar || !time) throw new Error('no status bar');
    const islandLeft = bar.x + (bar.width - 126) / 2;
    expect(time.box.x + time.box.width).toBeLessThan(islandLeft);
    expect(time.box.y).toBeGreaterThanOrEqual(bar.y);
    expect(time.box.y + time.box.height).toBeLessThanOrEqual(bar.y + bar.height);
    const mac = sceneFor('macbook-pro-16', {}, { width: 1728, height: 1080, dpr: 1 });
    const menu = mac.device?.bar?.rect;
    if (!menu) throw new Error('no menu bar');
    const notch = { left: menu.x + (menu.width - 196) / 2, right: menu.x + (menu.width + 196) / 2 };
    const words = mac.texts.filter((t) => t.role === 'device');
    expect(words.map((t) => t.lines[0])).toContain('Help');
    for (const w of words) {
      const clear = w.box.x + w.box.width < notch.left || w.box.x > notch.right;
      expect(clear, `${w.lines[0]} clears the notch`).toBe(true);
    }
    expect(sceneFor('browser-macos').device?.bar).toBeNull();
  });

  it.each(DEVICES)('%s: the SVG is opaque on the bezel and transparent on the screen', (device) => {
    const d = sceneFor(device, { device_scale: 0.5 }).device;
    if (!d) throw new Error('no device layer');
    const img = new Resvg(d.svg, { fitTo: { mode: 'original' } }).render();
    expect([img.width, img.height]).toEqual([d.rect.width, d.rect.height]);
    const alpha = (x: number, y: number) => img.pixels[(Math.round(y) * img.width + Math.round(x)) * 4 + 3];
    const sc = d.screen.rect;
    expect(alpha(sc.x - d.rect.x + sc.width / 2, sc.y - d.rect.y + sc.height * 0.6)).toBe(0);
    const body = d.silhouette[0]?.rect ?? sc;
    expect(alpha(body.x - d.rect.x + body.width / 2, body.y - d.rect.y + 2)).toBe(255);
    // The system bar is opaque and the page shows right below it.
    if (d.bar) {
      expect(alpha(d.bar.rect.x - d.rect.x + d.bar.rect.width * 0.3, d.bar.rect.y - d.rect.y + 2)).toBe(255);
      expect(alpha(sc.x - d.rect.x + sc.width / 2, sc.y - d.rect.y + 2)).toBe(0);
    }
  });
});
