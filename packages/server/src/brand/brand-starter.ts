/** Starts a project's brand extraction (marks it pending and queues the job). */
export interface BrandStarter {
  start(userId: string, projectId: string, domain: string, force?: boolean): Promise<void>;
}

/**
 * The project service is built with the database, before the queue and the browser exist; this
 * lets app.ts hand it the brand jobs once they do. Unbound (admin commands), extraction stays
 * `pending` until a server picks the project up on a refresh.
 */
export function createLateBrandStarter(): BrandStarter & { bind(target: BrandStarter): void } {
  let target: BrandStarter | undefined;
  return {
    bind(next) {
      target = next;
    },
    async start(userId, projectId, domain, force) {
      await target?.start(userId, projectId, domain, force);
    },
  };
}
