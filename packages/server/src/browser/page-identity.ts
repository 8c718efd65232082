import type { PageLease } from './browser-pool.ts';
import { renderFailed } from './capture-errors.ts';
import type { PageCaptureOptions } from './page-capture-options.ts';
import type { PageIdentity } from './page-controls.ts';

/** The media features a capture emulates: the colour scheme, and reduced motion when asked. */
export function mediaFeatures(options: PageCaptureOptions): { name: string; value: string }[] {
  return [
    { name: 'prefers-color-scheme', value: options.darkMode ? 'dark' : 'light' },
    ...(options.identity?.reducedMotion ? [{ name: 'prefers-reduced-motion', value: 'reduce' }] : []),
  ];
}

/** The user agent to keep while the language changes: the request's, else the browser's own. */
async function userAgentOf(lease: PageLease, options: PageCaptureOptions): Promise<string> {
  if (options.userAgent !== undefined) return options.userAgent;
  const version = (await lease.cdp.send('Browser.getVersion')) as { userAgent: string };
  return version.userAgent;
}

/**
 * Loads the browser's identity into a fresh capture page before its navigation: cookies into the
 * context's jar (Chromium sends each only to its own domain), extra headers on every request of
 * the page, the language (Accept-Language, navigator.language, Intl), the time zone, and a
 * position with the geolocation permission granted. Emulation goes through the page's CDP
 * session, like the rest of `emulate`.
 */
export async function applyPageIdentity(
  lease: PageLease,
  options: PageCaptureOptions,
  identity: PageIdentity,
): Promise<void> {
  const { cdp, context, page } = lease;
  try {
    if (identity.cookies?.length) await context.addCookies(identity.cookies);
    if (identity.headers) await page.setExtraHTTPHeaders(identity.headers);
    if (identity.locale !== undefined) {
      const locale = identity.locale;
      await cdp.send('Emulation.setLocaleOverride', { locale });
      await cdp.send('Emulation.setUserAgentOverride', {
        userAgent: await userAgentOf(lease, options),
        acceptLanguage: locale,
      });
    }
    if (identity.timezone !== undefined) {
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: identity.timezone });
    }
    if (identity.geolocation) {
      await context.grantPermissions(['geolocation']);
      await cdp.send('Emulation.setGeolocationOverride', identity.geolocation);
    }
  } catch (error) {
    throw renderFailed(
      error,
      'The browser identity (headers, locale, time zone, position, cookies) could not be applied',
    );
  }
}
