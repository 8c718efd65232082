/** One resource to close at shutdown, named for the error report. */
export interface Closer {
  name: string;
  close(): Promise<void> | void;
}

/** Told as each resource is done closing (or failed to), with how long it took. */
export type ClosedStep = (name: string, ms: number) => void;

/**
 * Closes every resource in order, each even when an earlier one threw (a failing HTTP close must
 * not leave Chromium running). Errors are collected and thrown together at the end. `onClosed`
 * hears of each step, so a slow shutdown can say which resource held it.
 */
export async function closeAll(closers: readonly Closer[], onClosed?: ClosedStep): Promise<void> {
  const failures: Error[] = [];
  for (const closer of closers) {
    const started = performance.now();
    try {
      await closer.close();
    } catch (error) {
      failures.push(new Error(`Closing ${closer.name} failed`, { cause: error }));
    }
    onClosed?.(closer.name, Math.round(performance.now() - started));
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, 'Several resources failed to close');
}
