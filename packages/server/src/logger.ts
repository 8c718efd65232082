import { type DestinationStream, type LoggerOptions, pino } from 'pino';

/** Removes credentials from a logged URL (`api_key`, `signature`). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|signature)=)[^&#]*/gi, '$1[redacted]');
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
