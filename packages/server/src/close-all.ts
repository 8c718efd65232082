/** One resource to close at shutdown, named for the error report. */
export interface Closer {
  name: string;
  close(): Promise<void> | void;
}

/**
 * Closes every resource in order, each even when an earlier one threw (a failing HTTP close must
 * not leave Chromium running). Errors are collected and thrown together at the end.
 */
export async function closeAll(closers: readonly Closer[]): Promise<void> {
  const failures: Error[] = [];
  for (const closer of closers) {
    try {
      await closer.close();
    } catch (error) {
      failures.push(new Error(`Closing ${closer.name} failed`, { cause: error }));
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, 'Several resources failed to close');
}
