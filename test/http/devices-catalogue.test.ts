import { DEVICES } from '@vitrine/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe('the device catalogue and canvas presets over HTTP (issue 38)', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  it('lists every device, publicly, with its screen, finishes and thumbnail URLs', async () => {
    const res = await t.request('GET', '/v1/devices');
    expect(res.status, res.text).toBe(200);
    const devices = res.json.devices as {
      device: string;
      family: string;
      screen: { width: number; height: number };
      finishes: { name: string; thumbnail_url: string }[];
      thumbnail_url: string;
    }[];
    expect(devices.map((d) => d.device)).toEqual([...DEVICES]);
    expect(devices.length).toBeGreaterThanOrEqual(15);
    expect(new Set(devices.map((d) => d.family))).toEqual(
      new Set(['phone', 'tablet', 'laptop', 'desktop', 'watch', 'browser', 'terminal']),
    );
    expect(devices.find((d) => d.device === 'pixel-9')).toMatchObject({
      label: expect.stringContaining('Android'),
      screen: { width: 412, height: 923 },
      viewport: { width: 412, height: 879 },
      dpr: 2.625,
      mobile: true,
    });
    expect(devices.find((d) => d.device === 'iphone-16-pro')).toMatchObject({
      screen: { width: 402, height: 874 },
      finishes: expect.arrayContaining([expect.objectContaining({ name: 'natural-titanium' })]),
    });
    for (const d of devices) {
      expect(d.thumbnail_url).toBe(d.finishes[0]?.thumbnail_url);
      expect(d.thumbnail_url.startsWith(t.baseUrl)).toBe(true);
    }
  });

  it('serves a thumbnail drawn once: a transparent PNG inside 320x320, the same bytes again', async () => {
    const list = (await t.request('GET', '/v1/devices')).json.devices as {
      device: string;
      finishes: { name: string; thumbnail_url: string }[];
    }[];
    const galaxy = list.find((d) => d.device === 'galaxy-s25');
    const url = galaxy?.finishes.find((f) => f.name === 'mint')?.thumbnail_url as string;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await first.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.width).toBeLessThanOrEqual(320);
    expect(meta.height).toBeLessThanOrEqual(320);
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    expect(meta.hasAlpha).toBe(true);
    // A corner is background (transparent), the centre is the screen (opaque).
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    const centre = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect(data[centre + 3]).toBe(255);
    const again = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
    expect((await fetch(`${t.baseUrl}/cdn/devices/galaxy-s25/gold.png`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/cdn/devices/toaster/mint.png`)).status).toBe(404);
  });

  it('refuses an unknown device with a 400 listing all the devices', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, device: 'toaster' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('device');
    for (const d of DEVICES) expect(res.json.error.message).toContain(d);
  });

  it("refuses a finish the device does not have, listing the device's finishes", async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/capture/simple.html`,
        device: 'pixel-9',
        device_color: 'titanium-gold',
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('device_color');
    expect(res.json.error.message).toContain('obsidian, porcelain, wintergreen, peony');
  });

  it('refuses canvas with an explicit output size, naming both fields', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, canvas: 'og', output: { width: 800 } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/canvas.*output\.width/);
    expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([
      'canvas',
      'output.width',
    ]);
  });

  it('captures onto a canvas preset at its exact size', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/capture/simple.html`,
        canvas: 'twitter',
        device: 'browser-minimal',
        title: 'Hello',
      },
    });
    expect(res.status, res.text).toBe(201);
    const meta = await sharp(Buffer.from(await (await fetch(res.json.url)).arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 675]);
  });
});
