import type { BatchService } from '../../jobs/batch-service.ts';
import type { RouteHandlers } from '../route-handler.ts';

/** POST /v1/batch and GET /v1/batches/{id} (issue 39): parse, hand to the batch service, reply. */
export function batchHandlers(deps: {
  batches: Pick<BatchService, 'create' | 'get'>;
}): Pick<RouteHandlers, 'createBatch' | 'getBatch'> {
  return {
    createBatch: async ({ principal, body, request, reply }) => {
      const header = request.headers['idempotency-key'];
      const key = typeof header === 'string' ? header : undefined;
      const { batch, replayed } = await deps.batches.create(body, principal, key);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return batch;
    },
    getBatch: async ({ principal, params }) => deps.batches.get(principal.userId, params.id),
  };
}
