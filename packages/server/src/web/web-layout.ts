import { escapeHtml } from '../escape-html.ts';

/** Markup that is already safe to insert (built with `html` or escaped by hand). */
export interface SafeHtml {
  readonly __html: string;
}

export function raw(markup: string): SafeHtml {
  return { __html: markup };
}

/**
 * A tagged template that escapes every interpolated value unless it is SafeHtml (or an array of
 * them), so page code cannot forget to escape user data.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += renderValue(value) + (strings[i + 1] ?? '');
  });
  return raw(out);
}

function renderValue(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (typeof value === 'object' && '__html' in value) return (value as SafeHtml).__html;
  return escapeHtml(value);
}

export interface PageOptions {
  title: string;
  main: SafeHtml;
  /** The signed-in user's email: shows the account link and the sign-out button. */
  signedInAs?: string | undefined;
  /** CSRF token for the sign-out form (needed when signed in). */
  csrfToken?: string | undefined;
  /** A narrow column for short forms. */
  narrow?: boolean;
}

/** A hidden field carrying the CSRF token; every form of the web pages includes one. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/**
 * The shared page layout of the web pages: one stylesheet, no scripts, a header with the
 * account link and sign-out when signed in, and a skip link for keyboard users.
 */
export function renderPage(options: PageOptions): string {
  const nav =
    options.signedInAs !== undefined && options.csrfToken !== undefined
      ? html`<nav aria-label="Account"><span class="muted">${options.signedInAs}</span><a href="/account">Account</a><form method="post" action="/logout">${csrfField(options.csrfToken)}<button type="submit" class="secondary small">Sign out</button></form></nav>`
      : '';
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${options.title} · Vitrine</title><link rel="stylesheet" href="/web.css"></head><body><a class="skip" href="#main">Skip to content</a><header class="site"><a class="brand" href="/account">Vitrine</a>${nav}</header><main id="main"${options.narrow ? raw(' class="narrow"') : ''}>${options.main}</main></body></html>`
      .__html
  }`;
}
