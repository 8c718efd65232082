/** About 5 s, 1 min, 5 min, 30 min, 2 h, 6 h between attempts (docs/api-decisions.md section 5). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000,
];

/** Attempts in all: the first one plus one per retry delay. */
export function webhookMaxAttempts(delays: readonly number[]): number {
  return delays.length + 1;
}

/**
 * The backoff of the webhook queue: the delay after failed attempt `attempt` (1-based), with
 * ±20 % jitter so that deliveries that failed together (a receiver outage) do not return
 * together. `random` is injectable for tests.
 */
export function webhookBackoff(
  delays: readonly number[],
  random: () => number = Math.random,
): (attempt: number) => number {
  return (attempt) => {
    const base = delays[Math.min(Math.max(attempt, 1), delays.length) - 1] ?? 0;
    return Math.round(base * (0.8 + 0.4 * random()));
  };
}
