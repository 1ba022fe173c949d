/**
 * Where a source keeps the ids of the provider-side jobs it started (ADS/CDS
 * jobIDs by request key). The ingest processor keeps them in the BullMQ
 * job's data (`remote`, written with job.updateData the moment an id is
 * known), so a retried job, or the worker that takes over a killed one,
 * follows the remote job already queued instead of submitting it again.
 * Ids only: never a credential.
 */
export interface RemoteJobs {
  get(key: string): string | undefined;
  /** Resolves once the id is stored where a retry will find it. */
  set(key: string, id: string): Promise<void>;
  /** A remote job that failed, expired or vanished: the next attempt submits anew. */
  forget(key: string): Promise<void>;
}

/** Ids kept in memory only (one call, the CLI, tests): what a crash loses. */
export function memoryRemoteJobs(initial: Record<string, string> = {}): RemoteJobs & { ids: Record<string, string> } {
  const ids = { ...initial };
  return {
    ids,
    get: (k) => ids[k],
    set: async (k, id) => {
      ids[k] = id;
    },
    forget: async (k) => {
      delete ids[k];
    },
  };
}

/** Ids kept in a record that `save` writes through (the job's data). */
export function recordRemoteJobs(read: () => Record<string, string> | undefined, save: (ids: Record<string, string>) => Promise<void>): RemoteJobs {
  return {
    get: (k) => read()?.[k],
    set: (k, id) => save({ ...read(), [k]: id }),
    forget: (k) => {
      const { [k]: _gone, ...rest } = read() ?? {};
      return save(rest);
    },
  };
}
