/**
 * A few calls at a time over a list (the files of a run, the requests of an
 * ADS job). The first failure stops the others through the signal each call
 * gets, and is thrown: a job fails or retries as a whole.
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  outer?: AbortSignal,
): Promise<R[]> {
  const local = new AbortController();
  const signal = outer ? AbortSignal.any([outer, local.signal]) : local.signal;
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (failure === undefined && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i, signal);
      } catch (err) {
        if (failure === undefined) {
          failure = { err };
          local.abort(err);
        }
      }
    }
  });
  await Promise.all(lanes);
  if (failure !== undefined) throw failure.err;
  return results;
}
