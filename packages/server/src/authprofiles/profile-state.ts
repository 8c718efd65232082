import {
  AUTH_PROFILE_LIMITS,
  type AuthProfileBody,
  type CookieInput,
  type OriginInput,
} from '@vitrine/contract';
import { parseCookie } from 'cookie';
import { parse as parseHost } from 'tldts';
import type { PageCookie } from '../browser/page-auth.ts';
import { type AppError, invalidParam } from '../errors/app-error.ts';
import { normalizeDomain } from '../projects/domain-name.ts';

/** A cookie as stored and as Playwright's `addCookies` takes it (a leading dot: subdomains too). */
export type StoredCookie = PageCookie;

export interface StoredOrigin {
  origin: string;
  localStorage: { name: string; value: string }[];
}

/** What a profile holds, sealed as one JSON value. Never logged, never returned. */
export interface ProfileState {
  cookies: StoredCookie[];
  origins: StoredOrigin[];
}

/** RFC 6265 token characters: what a cookie name may be made of. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters and `;` end or corrupt a cookie; browsers refuse them. */
function badCookieValue(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === ';') return true;
  }
  return false;
}

/**
 * The profile's domain: a lowercase host (a URL is accepted), never a public suffix (`com`,
 * `co.uk`, `github.io`) or a single label, since cookies for those would reach every site
 * under them. IP addresses are accepted as exact hosts.
 */
export function profileDomain(input: string): string {
  let host: string;
  try {
    // Cookies are scoped by host, never by port: a project domain's port does not belong here.
    host = normalizeDomain(input).replace(/:\d+$/, '');
  } catch (error) {
    // A single label (`com`) is not a dotted host name; say why it is refused.
    const label = parseHost(input.trim(), { allowPrivateDomains: true });
    if (label.hostname && label.domain === null && !label.isIp) throw publicSuffix(label.hostname);
    throw error;
  }
  const parsed = parseHost(host, { allowPrivateDomains: true });
  if (!parsed.isIp && parsed.domain === null) throw publicSuffix(host);
  return host;
}

function publicSuffix(host: string): AppError {
  return invalidParam(
    'domain',
    `${host} is a public suffix (like com, co.uk or github.io), not a site; use the site's own host, e.g. app.example.com`,
  );
}

/** Whether `host` is the profile domain or one of its subdomains (never the other way round). */
export function domainCovers(domain: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === domain) return true;
  // An address covers only itself, and is covered by nothing else.
  if (parseHost(domain).isIp || parseHost(h).isIp) return false;
  return h.endsWith(`.${domain}`);
}

function cookieKey(cookie: Pick<StoredCookie, 'name' | 'domain' | 'path'>): string {
  return `${cookie.name}\n${cookie.domain.replace(/^\./, '')}\n${cookie.path}`;
}

function fieldError(field: string, message: string): AppError {
  return invalidParam(field, message);
}

/** One input cookie, checked and completed; undefined (with a warning) when outside the domain. */
function storedCookie(
  input: CookieInput,
  domain: string,
  field: string,
  warnings: string[],
): StoredCookie | undefined {
  if (!COOKIE_NAME.test(input.name)) {
    throw fieldError(`${field}.name`, "A cookie name may only hold letters, digits and !#$%&'*+-.^_`|~");
  }
  if (badCookieValue(input.value)) {
    throw fieldError(
      `${field}.value`,
      `Cookie ${input.name}: the value may not hold control characters or ;`,
    );
  }
  if (Buffer.byteLength(input.name) + Buffer.byteLength(input.value) > AUTH_PROFILE_LIMITS.cookieBytes) {
    throw fieldError(
      `${field}.value`,
      `Cookie ${input.name} is over ${AUTH_PROFILE_LIMITS.cookieBytes} bytes (name and value together)`,
    );
  }
  const path = input.path ?? '/';
  if (!path.startsWith('/')) throw fieldError(`${field}.path`, 'A cookie path starts with /');
  const cookieDomain = (input.domain ?? domain).trim().toLowerCase();
  const bare = cookieDomain.replace(/^\./, '');
  if (bare === '' || !domainCovers(domain, bare)) {
    warnings.push(
      `Cookie ${input.name} for ${cookieDomain || '(no domain)'} dropped: it is not on ${domain} or one of its subdomains`,
    );
    return undefined;
  }
  let sameSite = input.sameSite ?? 'Lax';
  const secure = input.secure ?? false;
  if (sameSite === 'None' && !secure) {
    // Browsers refuse SameSite=None without Secure; Lax is what they would apply instead.
    warnings.push(`Cookie ${input.name}: sameSite None needs secure; stored as Lax`);
    sameSite = 'Lax';
  }
  const expires = input.expires === undefined || input.expires < 0 ? -1 : Math.floor(input.expires);
  return {
    name: input.name,
    value: input.value,
    domain: cookieDomain,
    path,
    expires,
    httpOnly: input.httpOnly ?? false,
    secure,
    sameSite,
  };
}

/** The cookies of a `Cookie:` header, on the profile domain and its subdomains, path `/`. */
function cookiesFromHeader(header: string, domain: string): CookieInput[] {
  const parsed = parseCookie(header.replace(/^\s*cookie:\s*/i, ''), { decode: (value) => value });
  const isIp = parseHost(domain).isIp;
  return Object.entries(parsed).map(([name, value]) => {
    if (name === '') throw fieldError('cookie_header', 'Every cookie needs a name (name=value; ...)');
    return { name, value: value ?? '', domain: isIp ? domain : `.${domain}`, path: '/' };
  });
}

function mergeOrigins(sources: (OriginInput[] | undefined)[], field: string): StoredOrigin[] {
  const byOrigin = new Map<string, Map<string, string>>();
  for (const origins of sources) {
    for (const entry of origins ?? []) {
      let origin: string;
      try {
        const url = new URL(entry.origin);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
        origin = url.origin;
      } catch {
        throw fieldError(`${field}.origin`, `${entry.origin} is not an http(s) origin`);
      }
      const items = byOrigin.get(origin) ?? new Map<string, string>();
      for (const item of entry.localStorage) items.set(item.name, item.value);
      byOrigin.set(origin, items);
    }
  }
  return [...byOrigin].map(([origin, items]) => ({
    origin,
    localStorage: [...items].map(([name, value]) => ({ name, value })),
  }));
}

/**
 * Merges a body's sources in the contract's order, later winning per (name, domain, path):
 * `cookie_header`, `storage_state.cookies`, `cookies`; origins from `storage_state.origins` then
 * `origins`. Cookies outside the profile domain are dropped, each with a warning. Origins outside
 * it are dropped too: their values would be handed to another site's scripts.
 */
export function mergeProfileInputs(
  domain: string,
  body: Pick<AuthProfileBody, 'cookie_header' | 'storage_state' | 'cookies' | 'origins'>,
): { state: ProfileState; warnings: string[] } {
  const warnings: string[] = [];
  const cookies = new Map<string, StoredCookie>();
  const sources: [string, CookieInput[] | undefined][] = [
    [
      'cookie_header',
      body.cookie_header === undefined ? undefined : cookiesFromHeader(body.cookie_header, domain),
    ],
    ['storage_state.cookies', body.storage_state?.cookies],
    ['cookies', body.cookies],
  ];
  for (const [field, list] of sources) {
    for (const input of list ?? []) {
      const cookie = storedCookie(input, domain, field, warnings);
      if (!cookie) continue;
      const key = cookieKey(cookie);
      cookies.delete(key);
      cookies.set(key, cookie);
    }
  }
  const origins = mergeOrigins([body.storage_state?.origins, body.origins], 'origins').filter((entry) => {
    const host = new URL(entry.origin).hostname.replace(/^\[|\]$/g, '');
    if (domainCovers(domain, host)) return true;
    warnings.push(`localStorage of ${entry.origin} dropped: it is not on ${domain} or one of its subdomains`);
    return false;
  });
  const state: ProfileState = { cookies: [...cookies.values()], origins };
  checkStateSize(state);
  return { state, warnings };
}

/** The limits that only the merged state can be checked against (400 naming the limit). */
export function checkStateSize(state: ProfileState): void {
  const L = AUTH_PROFILE_LIMITS;
  if (state.cookies.length > L.cookies) {
    throw invalidParam(
      'cookies',
      `A profile holds at most ${L.cookies} cookies; this one would hold ${state.cookies.length}`,
    );
  }
  if (state.origins.length > L.origins) {
    throw invalidParam('origins', `A profile holds localStorage of at most ${L.origins} origins`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(state));
  if (bytes > L.totalBytes) {
    throw invalidParam(
      'cookies',
      `The profile's cookies and localStorage together are ${bytes} bytes; the limit is ${L.totalBytes}`,
    );
  }
}

/** When the last cookie expires (ISO), or null when one never does or there are none. */
export function cookiesExpireAt(state: ProfileState): string | null {
  if (state.cookies.length === 0 || state.cookies.some((c) => c.expires < 0)) return null;
  const last = Math.max(...state.cookies.map((c) => c.expires));
  return new Date(last * 1000).toISOString();
}

/** Keeps the cookies still on the (possibly new) domain, warning about the others. */
export function refilterState(
  state: ProfileState,
  domain: string,
): { state: ProfileState; warnings: string[] } {
  const warnings: string[] = [];
  const cookies = state.cookies.filter((cookie) => {
    if (domainCovers(domain, cookie.domain.replace(/^\./, ''))) return true;
    warnings.push(
      `Cookie ${cookie.name} for ${cookie.domain} dropped: it is not on ${domain} or one of its subdomains`,
    );
    return false;
  });
  const origins = state.origins.filter((entry) => {
    if (domainCovers(domain, new URL(entry.origin).hostname)) return true;
    warnings.push(`localStorage of ${entry.origin} dropped: it is not on ${domain} or one of its subdomains`);
    return false;
  });
  return { state: { cookies, origins }, warnings };
}
