import { startThrowawayPostgres, startThrowawayRedis, type ThrowawayService } from './throwaway-services.ts';

/**
 * Before any test: a PostgreSQL cluster and a redis-server of this run's own (throwaway-services.ts),
 * whose URLs reach the test processes through the environment (test-services.ts reads them).
 * The returned teardown stops both and deletes the cluster.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const started: ThrowawayService[] = [];
  const stopAll = async () => {
    for (const service of started.splice(0).reverse()) await service.stop().catch(() => undefined);
  };
  try {
    const postgres = await startThrowawayPostgres();
    started.push(postgres);
    const redis = await startThrowawayRedis();
    started.push(redis);
    process.env.VITRINE_TEST_POSTGRES_URL = postgres.url;
    process.env.VITRINE_TEST_REDIS_URL = redis.url;
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
