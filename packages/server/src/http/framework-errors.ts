import type { Socket } from 'node:net';
import { AppError } from '../errors/app-error.ts';
import { envelopeOf } from './error-response.ts';

/**
 * Answers for requests that never reach a route: Node's HTTP parser refusing the bytes
 * (`clientError`) and Fastify's router refusing the URL (`frameworkErrors`). Both used to answer
 * in their own JSON, with the request's path in the message; here they leave in the contract's
 * envelope, with a code of its table, and never echo what was sent.
 */

/** Fastify's router errors (bad percent-encoding, an over-long path parameter) as AppErrors. */
export function routerError(error: { code?: string }): AppError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new AppError('uri_too_long', 'A path segment of the URL is too long (at most 200 characters)');
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return new AppError('bad_request', 'The URL is not valid: a path segment is not valid percent-encoding');
  }
  return new AppError('bad_request', 'The request could not be routed');
}

interface ParserError extends Error {
  code?: string;
  /** The chunk the parser failed on (a Buffer at run time; typed loosely by Fastify). */
  rawPacket?: unknown;
}

/** Does the packet the parser choked on end before its first line did (an over-long URL)? */
function requestLineOverflowed(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet) || packet.length === 0) return false;
  const head = packet.subarray(0, 32).toString('latin1');
  return /^[A-Z]+ /.test(head) && !packet.includes('\r\n');
}

/** Node's parser errors as AppErrors: 408, 414, 431, or 400 for anything malformed. */
export function parserError(error: ParserError): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive in time');
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflowed(error.rawPacket)
        ? new AppError(
            'uri_too_long',
            'The URL is too long (the request line and headers are limited to 16 KiB)',
          )
        : new AppError(
            'headers_too_large',
            'The request headers are too large (at most 16 KiB with the request line)',
          );
    default:
      return new AppError('bad_request', 'The request is not well-formed HTTP');
  }
}

/**
 * The `clientErrorHandler` of the Fastify server: writes the envelope on the raw socket (there
 * is no request object yet) and closes the connection, as Node's own handler does.
 */
export function answerClientError(error: ParserError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node's own handler: no answer when a response already started on this connection (a
  // second status line in the middle of it would corrupt the stream).
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    const appError = parserError(error);
    const body = JSON.stringify(envelopeOf(appError));
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_TEXT[appError.status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};
