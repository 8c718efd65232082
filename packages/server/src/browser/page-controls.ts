import type { PageCookie } from './page-auth.ts';
/**
 * The capture controls of issue 40 as the capture stage takes them: plain data, every default
 * applied and every check done (captures/resolve-controls.ts). Carried by PageCaptureOptions.
 */

/** One step before the shot; `target` is a CSS selector or a plain-language description. */
export type PageAction =
  | { type: 'click' | 'hover'; target: ActionTarget; timeoutMs: number }
  | { type: 'type'; target: ActionTarget; text: string; timeoutMs: number }
  | { type: 'press'; target: ActionTarget | null; key: string; timeoutMs: number }
  | { type: 'scroll_to'; target: ActionTarget | { x: number; y: number }; timeoutMs: number }
  | { type: 'wait'; ms: number }
  | { type: 'wait_for'; selector: string; state: 'visible' | 'hidden'; timeoutMs: number }
  | { type: 'select'; target: ActionTarget; value: string; timeoutMs: number };

export type ActionTarget = { selector: string } | { element: string };

/** A cookie of the request itself, checked against the target's site like an auth profile's. */
export type RequestCookie = PageCookie;

/** How the browser presents itself beyond viewport, user agent and colour scheme. */
export interface PageIdentity {
  /** Extra request headers (names lower-cased, deny list applied). */
  headers?: Record<string, string>;
  /** Canonical BCP 47 tag: Accept-Language, navigator.language, Intl. */
  locale?: string;
  timezone?: string;
  geolocation?: { latitude: number; longitude: number; accuracy: number };
  reducedMotion?: boolean;
  cookies?: RequestCookie[];
}

/** The page to render when the request gave `html` instead of `url`. */
export interface HtmlDocument {
  /** The document served at the capture's URL (the `css` already added). */
  body: string;
}

/**
 * The URL an `html` document is served at, inside the browser only (the request never leaves
 * it): plain http, so that http subresources of the document are not mixed content; `.invalid`
 * (RFC 2606), so that nothing else could ever answer for it. Its other paths go to the egress
 * proxy like any request, which refuses the name.
 */
export const HTML_DOCUMENT_URL = 'http://html.vitrine.invalid/';
