import { type CaptureRequest, CREDIT_PRICE_DEFAULTS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.ts';
import { parseResolvedCapture, serialiseResolvedCapture } from '../resolved-capture.ts';
import { resolveCaptureFields } from './resolve-capture.ts';

const deps = { prices: CREDIT_PRICE_DEFAULTS, validateBackgroundReference() {} };
const URL_A = 'https://example.com/';
const URL_B = 'https://example.com/pricing';

function resolve(body: CaptureRequest, urls: string[] = (body.shots ?? []).map((s) => s.url ?? URL_A)) {
  return resolveCaptureFields({ url: URL_A, ...body }, 'capture', URL_A, null, deps, urls);
}

function refused(body: CaptureRequest): { path: string; message: string } {
  try {
    resolve(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const issue = ((error as AppError).details?.issues as { path: string }[] | undefined)?.[0] ?? {
      path: '',
    };
    return { path: issue.path, message: (error as AppError).message };
  }
  throw new Error('accepted');
}

describe('resolving a scene', () => {
  it("lays each shot's fields over the request's, and takes the scene's defaults", () => {
    const plan = resolve({
      device: 'iphone-16-pro',
      device_color: 'desert-titanium',
      dark_mode: true,
      shots: [{}, { device: 'macbook-pro-16' }, { url: URL_B, dark_mode: false }],
    });
    const scene = plan.scene!;
    expect(scene).toMatchObject({ layout: 'side-by-side', spacing: 48, alignment: 'center' });
    expect(scene.shots.map((s) => s.frame)).toEqual([
      { device: 'iphone-16-pro', device_color: 'desert-titanium', device_scale: 1, frame_ratio: 'auto' },
      // Another device does not take the request's finish.
      { device: 'macbook-pro-16', device_color: 'space-black', device_scale: 1, frame_ratio: 'auto' },
      { device: 'iphone-16-pro', device_color: 'desert-titanium', device_scale: 1, frame_ratio: 'auto' },
    ]);
    expect(scene.shots.map((s) => [s.page.url, s.page.darkMode, s.page.viewport.width])).toEqual([
      [URL_A, true, 402],
      [URL_A, true, 1728],
      [URL_B, false, 402],
    ]);
    // The plan's page is the first shot's.
    expect(plan.page).toEqual(scene.shots[0]!.page);
  });

  it('costs a capture per page load: shots with equal page options share one', () => {
    const viewport = { width: 1280, height: 800 };
    const one = resolve({
      viewport,
      shots: [{ device: 'browser-macos' }, { device: 'browser-windows' }, {}],
    });
    expect(one.cost).toBe(CREDIT_PRICE_DEFAULTS.capture);
    const three = resolve({ viewport, shots: [{}, { dark_mode: true }, { url: URL_B, full_page: true }] });
    expect(three.cost).toBe(3 * CREDIT_PRICE_DEFAULTS.capture + CREDIT_PRICE_DEFAULTS.full_page);
  });

  it("names the shot's index in a refused field, and refuses what a scene does not take", () => {
    expect(refused({ shots: [{}, { element: 'pricing', selector: '.p' }] }).path).toBe('shots[1].element');
    const color = refused({ shots: [{}, {}, { device: 'pixel-9', device_color: 'plaid' }] });
    expect(color.path).toBe('shots[2].device_color');
    expect(color.message).toContain('Invalid shots[2].device_color');
    expect(refused({ scene: { layout: 'fan' } }).path).toBe('scene');
    expect(refused({ shots: [{}, {}], motion: { type: 'scroll' } }).path).toBe('motion');
    expect(refused({ shots: [{}, {}], layout: 'top-cropped' }).path).toBe('layout');
    expect(refused({ shots: [{}, {}], prompt: 'make it pop' }).path).toBe('prompt');
  });

  it('round-trips through a job payload', () => {
    const plan = resolve({
      shots: [{ device: 'pixel-9' }, { url: URL_B }],
      scene: { layout: 'fan', spacing: 12 },
    });
    expect(parseResolvedCapture(serialiseResolvedCapture(plan))).toEqual(plan);
  });

  it('leaves a request without shots as it was', () => {
    const plan = resolve({ device: 'iphone-16-pro' });
    expect(plan.scene).toBeUndefined();
    expect(plan.cost).toBe(CREDIT_PRICE_DEFAULTS.capture);
  });
});
