import swagger from '@fastify/swagger';
import { WEBHOOK_VERIFICATION_GUIDE } from '@vitrine/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { ulid } from 'ulid';
import { AppError } from '../errors/app-error.ts';
import { registerApiReference } from '../web/api-reference.ts';
import { collectAllowedMethods } from './allowed-methods.ts';
import { ignoreEmptyBodies } from './empty-body.ts';
import { sendError, toAppError } from './error-response.ts';
import { answerClientError, routerError } from './framework-errors.ts';
import type { Metrics } from './metrics.ts';
import { finishOpenApiDocument } from './openapi-document.ts';
import { registerRoutes } from './register-routes.ts';
import type { RouteHandlers } from './route-handler.ts';
import { drainUnreadBodies } from './unread-body.ts';

export interface HttpServerOptions {
  logger: FastifyBaseLogger;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  trustProxy: boolean;
  publicUrl: string;
  version: string;
  metrics: Metrics;
  handlers: RouteHandlers;
  guard: Parameters<typeof registerRoutes>[2];
  /** Named readiness checks for /readyz; each throws when its dependency is not usable. */
  readinessChecks: Record<string, () => Promise<void>>;
}

/** Longest wait for one dependency's readiness check. */
const READINESS_TIMEOUT_MS = 3000;

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The most of an unread body read and discarded so an early answer (413, 401) reaches a client
 * that writes its whole body before reading (unread-body.ts); 64 MiB, 256 times the body limit.
 */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/** Builds the Fastify app: the contract's routes plus health, metrics, OpenAPI and /docs. */
export async function buildHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : `req_${ulid()}`;
    },
    connectionTimeout: options.requestTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    // On close, idle keep-alive connections end at once; see closeHttpServer for the rest.
    forceCloseConnections: 'idle',
    trustProxy: options.trustProxy,
    routerOptions: { maxParamLength: 200 },
    // Requests refused before routing still answer in the contract's envelope (framework-errors.ts).
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => {
      sendError(routerError(error), request, reply);
    },
  });
  app.server.headersTimeout = 30_000;
  // Before any route: it learns every path's methods for 405 and OPTIONS.
  const allowedMethods = collectAllowedMethods(app);
  ignoreEmptyBodies(app);
  drainUnreadBodies(app, MAX_DRAIN_BYTES);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // A POST without a body validates as an empty object, so "all optional" bodies work bare and
  // required fields are reported by name. Anything that is JSON but not an object is refused.
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.schema?.body) return;
    if (request.body === undefined || request.body === null) {
      request.body = {};
    } else if (typeof request.body !== 'object' || Array.isArray(request.body)) {
      throw new AppError('invalid_json', 'The body must be a JSON object');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    options.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  app.setErrorHandler((error, request, reply) => {
    const dependency = toAppError(error).details?.dependency;
    if (typeof dependency === 'string') {
      options.metrics.dependencyFailures.inc({ dependency, operation: 'request' });
    }
    return sendError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    allowedMethods.answer(
      request,
      reply,
      // The path is not repeated: answers never echo the request (a hostile path would come back).
      () =>
        new AppError(
          'not_found',
          `No ${request.method} route at this path; the routes are listed at /v1/openapi.json`,
        ),
    ),
  );

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vitrine API',
        version: options.version,
        description: `Capture a web page, compose styling around it, store it, get its URL. Design a look by eye and copy the call in the [playground](/playground).\n\n${WEBHOOK_VERIFICATION_GUIDE}`,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: options.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => finishOpenApiDocument(jsonSchemaTransformObject(input)),
  });

  registerRoutes(app, options.handlers, options.guard);

  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  // Every dependency is checked at once, each within READINESS_TIMEOUT_MS: a dependency that
  // hangs (an object store that stopped answering) is reported as failing, not as a hung probe.
  app.get('/readyz', hidden, async (_request, reply) => {
    const entries = await Promise.all(
      Object.entries(options.readinessChecks).map(async ([name, check]) => {
        const ok = await withTimeout(check(), READINESS_TIMEOUT_MS).then(
          () => true,
          () => false,
        );
        options.metrics.dependencyUp.set({ dependency: name }, ok ? 1 : 0);
        return [name, ok ? 'ok' : 'failing'] as const;
      }),
    );
    const checks = Object.fromEntries(entries);
    const ready = entries.every(([, state]) => state === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.get('/metrics', hidden, async (_request, reply) =>
    reply.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics()),
  );
  app.get('/v1/openapi.json', hidden, async () => app.swagger());
  registerApiReference(app);
  return app;
}

/**
 * Stops the HTTP server: no new requests, in-flight ones may finish within `graceMs`, then every
 * remaining connection is cut (a client that stopped reading must not hold up a shutdown).
 */
export async function closeHttpServer(app: FastifyInstance, graceMs: number): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}
