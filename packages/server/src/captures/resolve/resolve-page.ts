import { CAPTURE_DEFAULTS, type OutputOptions, type RawCaptureRequest } from '@vitrine/contract';
import type { PageCaptureOptions } from '../../browser/page-capture-options.ts';
import { AppError, invalidParam } from '../../errors/app-error.ts';
import type { OutputSettings } from '../../image/output-settings.ts';
import { DERIVED, withDefaults } from './defaults.ts';
import { resolvePageControls } from './resolve-controls.ts';

/** The URL to capture: `url` or its alias `site`, a bare host getting `https://`. */
export function targetUrlOf(request: { url?: string; site?: string }): string {
  const raw = (request.url ?? request.site)?.trim();
  if (!raw) {
    throw new AppError('invalid_params', 'Missing required field: url (or site)', {
      details: { issues: [{ path: 'url', message: 'Missing required field: url (or site)' }] },
    });
  }
  if (request.url !== undefined && request.site !== undefined && request.url !== request.site) {
    throw invalidParam('site', 'Give either url or site (its alias), not both with different values');
  }
  return /^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^:/]+:\d+(\/|$)/.test(raw) ? raw : `https://${raw}`;
}

/** A device's own capture settings, used when the request gives no viewport. */
export interface DeviceDefaults {
  viewport: { width: number; height: number };
  dpr: number;
  userAgent: string | undefined;
  isMobile: boolean;
  hasTouch: boolean;
}

/**
 * Resolves the "Target and browser" fields into what the capture stage needs. Without
 * `capture_dpr`, the capture's device scale factor is the device's, else `output.dpr`, so the
 * pixels are real, never upscaled.
 */
export function resolvePageCapture(
  body: Omit<RawCaptureRequest, 'output'> & { output?: OutputOptions },
  url: string,
  output: OutputSettings,
  device?: DeviceDefaults,
): PageCaptureOptions {
  const request = withDefaults(body);
  if (request.selector !== undefined && request.full_page) {
    throw invalidParam(
      'full_page',
      'full_page and selector cannot be combined: a selector captures one element',
    );
  }
  const element = request.element?.trim();
  if (request.element !== undefined) {
    if (request.selector !== undefined) {
      throw invalidParam(
        'element',
        'element and selector cannot be combined: give a plain-language description or a CSS selector, not both',
      );
    }
    if (request.full_page) {
      throw invalidParam(
        'element',
        'element and full_page cannot be combined: element captures one part of the page',
      );
    }
    if (!element)
      throw invalidParam('element', 'element must describe a part of the page, e.g. "pricing table"');
  }
  const block = request.block ?? [];
  // With a device and no viewport, the device's viewport, DPR, user agent, mobile and touch
  // apply (docs/api-decisions.md, "Devices"); every field the request gives explicitly still wins.
  const preset = request.viewport === undefined ? device : undefined;
  return {
    url,
    viewport: request.viewport ?? preset?.viewport ?? { ...CAPTURE_DEFAULTS.viewport },
    deviceScaleFactor: request.capture_dpr ?? preset?.dpr ?? output.dpr,
    userAgent: request.user_agent ?? preset?.userAgent,
    isMobile: request.emulate_mobile ?? preset?.isMobile ?? CAPTURE_DEFAULTS.emulate_mobile,
    hasTouch: request.emulate_touch ?? request.emulate_mobile ?? preset?.hasTouch ?? DERIVED.hasTouch,
    waitFor: request.wait_for,
    block,
    injectCss: request.inject_css,
    darkMode: request.dark_mode,
    fullPage: request.full_page,
    hideSelectors: request.hide_selectors ?? [],
    selector: request.selector,
    ...(element ? { element } : {}),
    // The body as given: a control checks what the caller said (dark_mode unset is not false).
    ...resolvePageControls(body, url),
  };
}
