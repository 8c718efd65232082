import crypto from 'node:crypto';
import {
  type CaptureAction,
  DENIED_REQUEST_HEADERS,
  CAPTURE_CONTROL_LIMITS as L,
  type RawCaptureRequest,
} from '@vitrine/contract';
import { getDomain } from 'tldts';
import { mergeProfileInputs } from '../../authprofiles/profile-state.ts';
import type { PageCaptureOptions } from '../../browser/page-capture-options.ts';
import {
  type ActionTarget,
  HTML_DOCUMENT_URL,
  type PageAction,
  type PageIdentity,
} from '../../browser/page-controls.ts';
import { invalidParam } from '../../errors/app-error.ts';

/**
 * The capture controls of issue 40 (actions, identity, html, metadata), resolved from a
 * validated body with no I/O: every rule the schema cannot state is a 400 naming the field.
 * Kept apart from resolve-page.ts so that the request's resolution can be re-wired around it.
 */

type ControlsRequest = Omit<RawCaptureRequest, 'output'> & { async?: boolean; motion?: unknown };

/** The `html` request's target: HTML_DOCUMENT_URL, or undefined for a request with a URL. */
export function htmlTargetOf(request: ControlsRequest): string | undefined {
  if (request.html === undefined) {
    if (request.css !== undefined) throw invalidParam('css', 'css is only used with html');
    return undefined;
  }
  if (request.url !== undefined || request.site !== undefined) {
    throw invalidParam(request.url !== undefined ? 'url' : 'site', 'Give either url or html, not both');
  }
  if (request.auth_profile_id !== undefined) {
    throw invalidParam('auth_profile_id', 'An auth profile logs into a site; html has none');
  }
  return HTML_DOCUMENT_URL;
}

function htmlDocument(request: ControlsRequest): PageCaptureOptions['html'] {
  if (request.html === undefined) return undefined;
  const bytes = Buffer.byteLength(request.html);
  if (bytes > L.htmlBytes) {
    throw invalidParam('html', `html is ${bytes} bytes; the limit is ${L.htmlBytes} (UTF-8)`);
  }
  if (request.css !== undefined && Buffer.byteLength(request.css) > L.cssBytes) {
    throw invalidParam('css', `css is over ${L.cssBytes} bytes (UTF-8)`);
  }
  // After the document, so it comes last in the cascade (the parser moves it into the body).
  const css = request.css ? `\n<style>${request.css}</style>` : '';
  return { body: `${request.html}${css}` };
}

function targetOf(action: { selector?: string; element?: string }, field: string): ActionTarget {
  const element = action.element?.trim();
  if (action.selector !== undefined && action.element !== undefined) {
    throw invalidParam(`${field}.element`, 'Give a selector or an element description, not both');
  }
  if (action.selector !== undefined) return { selector: action.selector };
  if (action.element !== undefined) {
    if (!element) throw invalidParam(`${field}.element`, 'element must describe a part of the page');
    return { element };
  }
  throw invalidParam(`${field}.selector`, 'This step needs a selector or an element description');
}

function actionOf(action: CaptureAction, field: string): PageAction {
  const timeoutMs =
    'timeout_ms' in action && action.timeout_ms ? action.timeout_ms : L.actionTimeoutMs.default;
  switch (action.type) {
    case 'click':
    case 'hover':
      return { type: action.type, target: targetOf(action, field), timeoutMs };
    case 'type':
      return { type: 'type', target: targetOf(action, field), text: action.text, timeoutMs };
    case 'press': {
      const target =
        action.selector === undefined && action.element === undefined ? null : targetOf(action, field);
      return { type: 'press', target, key: action.key, timeoutMs };
    }
    case 'scroll_to': {
      const pixels = action.x !== undefined || action.y !== undefined;
      if (pixels && (action.selector !== undefined || action.element !== undefined)) {
        throw invalidParam(`${field}.y`, 'Scroll to a position (x, y) or to a selector or element, not both');
      }
      const target = pixels ? { x: action.x ?? 0, y: action.y ?? 0 } : targetOf(action, field);
      return { type: 'scroll_to', target, timeoutMs };
    }
    case 'wait':
      return { type: 'wait', ms: action.ms };
    case 'wait_for':
      return { type: 'wait_for', selector: action.selector, state: action.state ?? 'visible', timeoutMs };
    case 'select':
      return { type: 'select', target: targetOf(action, field), value: action.value, timeoutMs };
  }
}

/** The steps, each bounded, all of them together within {@link L.actionsTotalMs}. */
export function resolveActions(actions: readonly CaptureAction[] | undefined): PageAction[] | undefined {
  if (actions === undefined || actions.length === 0) return undefined;
  const resolved = actions.map((action, i) => actionOf(action, `actions[${i}]`));
  const total = resolved.reduce((sum, step) => sum + (step.type === 'wait' ? step.ms : step.timeoutMs), 0);
  if (total > L.actionsTotalMs) {
    throw invalidParam(
      'actions',
      `The steps may take up to ${total} ms together (waits and timeouts); the limit is ${L.actionsTotalMs}`,
    );
  }
  return resolved;
}

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const DENIED = new Set<string>(DENIED_REQUEST_HEADERS);

/** A header value may hold tab, space, visible ASCII and Latin-1; never CR, LF, NUL or controls. */
function badHeaderValue(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return true;
  }
  return false;
}

export function resolveHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const entries = Object.entries(headers);
  if (entries.length > L.headers) throw invalidParam('headers', `At most ${L.headers} headers`);
  const out: Record<string, string> = {};
  let bytes = 0;
  for (const [rawName, value] of entries) {
    const field = `headers.${rawName}`;
    if (!HEADER_NAME.test(rawName)) {
      throw invalidParam(field, "A header name may only hold letters, digits and !#$%&'*+-.^_`|~");
    }
    const name = rawName.toLowerCase();
    if (DENIED.has(name) || name.startsWith('proxy-') || name.startsWith('sec-')) {
      const why =
        name === 'accept-language' ? ' (use locale)' : name === 'user-agent' ? ' (use user_agent)' : '';
      throw invalidParam(field, `The ${name} header cannot be set${why}`);
    }
    if (name === 'cookie') {
      // Extra headers go to every request of the page, third parties included; cookies given as
      // `cookies` (or an auth profile) reach only their own site.
      throw invalidParam(
        field,
        'Give cookies in the cookies field (or an auth profile): a cookie header would reach every site the page loads from',
      );
    }
    if (badHeaderValue(value)) {
      throw invalidParam(
        field,
        'A header value may not hold CR, LF, NUL, other control characters or non-Latin-1',
      );
    }
    if (name in out) throw invalidParam(field, `The ${name} header is given twice`);
    out[name] = value;
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  if (bytes > L.headerBytes)
    throw invalidParam('headers', `The headers are over ${L.headerBytes} bytes together`);
  return entries.length > 0 ? out : undefined;
}

export function resolveLocale(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  // Only a tag: no list, no weights, nothing that would change the Accept-Language header's form.
  if (!/^[A-Za-z0-9-]+$/.test(locale)) throw invalidParam('locale', `${locale} is not a BCP 47 language tag`);
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    if (canonical) return canonical;
  } catch {
    // Reported below.
  }
  throw invalidParam('locale', `${locale} is not a BCP 47 language tag (e.g. en-US, de-DE, ja)`);
}

export function resolveTimezone(timezone: string | undefined): string | undefined {
  if (timezone === undefined) return undefined;
  try {
    if (/^[A-Za-z0-9_+\-/]+$/.test(timezone)) {
      return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
    }
  } catch {
    // Reported below.
  }
  throw invalidParam(
    'timezone',
    `${timezone} is not an IANA time zone (e.g. Europe/Berlin, Asia/Tokyo, UTC)`,
  );
}

/** The target's site: its registrable domain (cookies may be on it or its subdomains), or the address. */
function siteOf(url: string): string {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

function resolveCookies(request: ControlsRequest, url: string): PageIdentity['cookies'] {
  if (request.cookies === undefined || request.cookies.length === 0) return undefined;
  if (request.html !== undefined) throw invalidParam('cookies', 'Cookies need a site; html has none');
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  // Without a domain, a cookie is the target host's alone (host-only), as a browser would set it.
  const cookies = request.cookies.map((cookie) => ({ ...cookie, domain: cookie.domain ?? host }));
  const { state, warnings } = mergeProfileInputs(siteOf(url), { cookies });
  const dropped = warnings.find((warning) => warning.includes('dropped'));
  if (dropped) throw invalidParam('cookies', dropped.replace(/dropped: it is/, 'refused: it is'));
  return state.cookies;
}

/** The browser's identity, or undefined when the request changes none of it. */
export function resolveIdentity(request: ControlsRequest, url: string): PageIdentity | undefined {
  const secrets = request.headers !== undefined || request.cookies !== undefined;
  // A video is queued unless the request says `async: false`.
  const queued = request.async === true || (request.motion !== undefined && request.async !== false);
  if (secrets && queued) {
    // A queued capture is stored as a job; headers and cookies (logins, tokens) are not stored.
    throw invalidParam(
      request.headers !== undefined ? 'headers' : 'cookies',
      'headers and cookies are not kept for queued captures: use them without async, or an auth profile',
    );
  }
  const identity: PageIdentity = {
    headers: resolveHeaders(request.headers),
    locale: resolveLocale(request.locale),
    timezone: resolveTimezone(request.timezone),
    geolocation: request.geolocation && {
      latitude: request.geolocation.latitude,
      longitude: request.geolocation.longitude,
      accuracy: request.geolocation.accuracy ?? 10,
    },
    reducedMotion: request.reduced_motion === true ? true : undefined,
    cookies: resolveCookies(request, url),
  };
  const given = Object.fromEntries(Object.entries(identity).filter(([, value]) => value !== undefined));
  return Object.keys(given).length > 0 ? (given as PageIdentity) : undefined;
}

/** `color_scheme` as the dark mode it means; a `dark_mode` that says otherwise is refused. */
function darkModeOf(request: ControlsRequest): boolean | undefined {
  if (request.color_scheme === undefined) return undefined;
  const dark = request.color_scheme === 'dark';
  if (request.dark_mode !== undefined && request.dark_mode !== dark) {
    throw invalidParam(
      'color_scheme',
      `color_scheme ${request.color_scheme} contradicts dark_mode ${request.dark_mode}`,
    );
  }
  return dark;
}

/**
 * The page options the controls add (only those given, so a request without them resolves, and
 * is cache-keyed, exactly as before).
 */
export function resolvePageControls(request: ControlsRequest, url: string): Partial<PageCaptureOptions> {
  const actions = resolveActions(request.actions);
  const identity = resolveIdentity(request, url);
  const html = htmlDocument(request);
  const darkMode = darkModeOf(request);
  return {
    ...(actions ? { actions } : {}),
    ...(identity ? { identity } : {}),
    ...(html ? { html } : {}),
    ...(request.metadata === true ? { metadata: true } : {}),
    ...(darkMode !== undefined ? { darkMode } : {}),
  };
}

function digest(value: string): string {
  return `sha256:${crypto.createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}

/**
 * The controls' part of `resolved_params` and of the cache key: every field that changes pixels.
 * Header and cookie values and typed text are shown (and keyed) by digest only; so is the html
 * document. Only
 * the controls given appear, so other requests keep their keys.
 */
export function controlsParamsOf(page: PageCaptureOptions): Record<string, unknown> {
  const identity = page.identity;
  return {
    // Typed text may be a password: stored and shown as a digest, like header values.
    ...(page.actions
      ? {
          actions: page.actions.map((step) =>
            step.type === 'type' ? { ...step, text: digest(step.text) } : step,
          ),
        }
      : {}),
    ...(identity?.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(identity.headers).map(([name, value]) => [name, digest(value)]),
          ),
        }
      : {}),
    ...(identity?.locale ? { locale: identity.locale } : {}),
    ...(identity?.timezone ? { timezone: identity.timezone } : {}),
    ...(identity?.geolocation ? { geolocation: identity.geolocation } : {}),
    ...(identity?.reducedMotion ? { reduced_motion: true } : {}),
    ...(identity?.cookies
      ? {
          cookies: identity.cookies.map((cookie) => ({ ...cookie, value: digest(cookie.value) })),
        }
      : {}),
    ...(page.html
      ? { html: { bytes: Buffer.byteLength(page.html.body), digest: digest(page.html.body) } }
      : {}),
    ...(page.metadata ? { metadata: true } : {}),
  };
}
