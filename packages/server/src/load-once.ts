/**
 * A loader that runs `load` on its first call and hands every caller the same promise; a failed
 * load is forgotten, so the next call tries again. For what only some requests need (block
 * lists, the bundled fonts), loaded when the first of them comes instead of at start-up.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
