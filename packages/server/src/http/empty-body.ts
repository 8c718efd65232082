import type { FastifyInstance } from 'fastify';

/**
 * An empty body is no body, whatever its Content-Type. Typed clients (`openapi-fetch` with a
 * default JSON header, axios, many SDKs) send `Content-Type: application/json` with nothing
 * after it on routes that take no body (`ensure-default`, `signing-secret/rotate`, `DELETE
 * /v1/keys/{id}`); Fastify read that as malformed JSON (400 `invalid_json`). Two cases: a
 * request without body bytes (`Content-Length: 0`, or neither it nor chunking) of any type loses
 * its Content-Type before parsing, so Fastify skips the parsers as for a bare request; an empty
 * chunked JSON body parses to "no body". Either way routes with a body see `{}`
 * (build-http-server.ts), so their required fields are named.
 */
export function ignoreEmptyBodies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const { headers } = request;
    const length = headers['content-length'];
    if (
      headers['content-type'] !== undefined &&
      (length === undefined || length === '0') &&
      headers['transfer-encoding'] === undefined
    ) {
      delete headers['content-type'];
    }
  });
  // The same protection as the server's options (onProtoPoisoning, onConstructorPoisoning).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
