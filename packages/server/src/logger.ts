import { type DestinationStream, type LoggerOptions, pino } from 'pino';

/** Query parameters that carry a credential (docs/api-decisions.md sections 3 and 4), compared decoded and lowercased. */
const SECRET_QUERY_NAMES = new Set(['api_key', 'signature']);

/** A query name as the framework reads it (`+` is a space, percent-escapes decoded), or null. */
function decodedName(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * Removes credentials from a logged URL: the value of every `api_key` and `signature` parameter,
 * however the name is spelled on the wire. The server decodes names before it reads them, so
 * `api%5Fkey=` is the key too; a literal match on `api_key=` let it through in clear (issue 35).
 * Names are decoded, trimmed and lowercased before the comparison; a name that does not decode
 * has its value removed as well (better an unreadable log line than a leaked key).
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const hashAt = url.indexOf('#', queryAt);
  const end = hashAt === -1 ? url.length : hashAt;
  const pairs = url
    .slice(queryAt + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = decodedName(pair.slice(0, equals));
      const secret = name === null || SECRET_QUERY_NAMES.has(name.trim().toLowerCase());
      return secret ? `${pair.slice(0, equals)}=[redacted]` : pair;
    });
  return `${url.slice(0, queryAt + 1)}${pairs.join('&')}${url.slice(end)}`;
}

/**
 * The JSON logger on stdout (or `destination`, which tests read); credentials in headers and
 * query strings are redacted.
 */
export function createLogger(level: string, destination?: DestinationStream) {
  const options: LoggerOptions = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
