import { z } from 'zod';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';

function domainPattern(labels: '+' | '*'): RegExp {
  return new RegExp(
    `^(?:[Hh][Tt][Tt][Pp][Ss]?://)?(?=[^/?#:]{1,253}(?:[:/?#]|$))(?:${LABEL}\\.)${labels}${LABEL}\\.?(?::${PORT})?(?:[/?#]\\S*)?$`,
  );
}

/**
 * What a project's `domain` may be: a dotted host name or IPv4 address, optionally with an
 * `http(s)://` scheme, a port and a path (the server keeps the lowercase host and the port).
 * International names are given in their ASCII (punycode) form. Stated as a pattern so that the
 * OpenAPI document says what the server refuses; the server's normaliser
 * (projects/domain-name.ts) still checks what a pattern cannot (address ranges).
 */
export const DOMAIN_PATTERN = domainPattern('+');

/**
 * An auth profile's `domain`: the same shape, but a single label passes the pattern so that the
 * server can say why `com` is refused (a public suffix, which no pattern can list).
 */
export const PROFILE_DOMAIN_PATTERN = domainPattern('*');

/** A `domain` field: trimmed, then checked against `pattern`. */
export function domainSchema(description: string, pattern = DOMAIN_PATTERN) {
  return z
    .string()
    .trim()
    .max(253)
    .regex(pattern, 'Must be a domain name like example.com (a URL is accepted too)')
    .meta({ description });
}
