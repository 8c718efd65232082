import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the double received, parsed. */
export interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: unknown }[];
    response_format?: { type: string; json_schema?: { schema: unknown } };
  };
}

/**
 * A local server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`),
 * answering with whatever `answer` returns for each request: the test double of an AI provider.
 * The product talks to it with its real HTTP client.
 */
export async function startChatCompletionsDouble(
  answer: (request: ChatRequest) => string | { status: number },
) {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request: ChatRequest = {
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      };
      requests.push(request);
      const content = answer(request);
      if (typeof content !== 'string') {
        res
          .writeHead(content.status, { 'content-type': 'application/json' })
          .end('{"error":{"message":"nope"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: request.body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    // Connections the service's client keeps alive are dropped, not waited for.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
