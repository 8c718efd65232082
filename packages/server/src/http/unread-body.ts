import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Reads and discards what is left of a request body before an early answer goes out (a 413 for
 * a body over the limit, a 401 before a body was read). Answering first and closing made the
 * client's next write fail (EPIPE, then a reset that dropped the unread answer from its
 * buffer): a client that writes its whole body before reading never saw the 413. Draining
 * first costs the bytes the client sends anyway, up to `maxDrainBytes`; beyond that (declared
 * or counted) the answer goes out at once and the connection closes. The server's request
 * timeout bounds a client that sends slowly.
 */
export function drainUnreadBodies(app: FastifyInstance, maxDrainBytes: number): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete || raw.readableEnded || raw.destroyed) return payload;
    const declared = Number(raw.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxDrainBytes) {
      reply.header('connection', 'close');
      return payload;
    }
    if (!(await drain(raw, maxDrainBytes))) reply.header('connection', 'close');
    return payload;
  });
}

/** Resolves true once the body ended, false when it went past `maxBytes` or the socket closed. */
function drain(raw: IncomingMessage, maxBytes: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}
