/**
 * A small shared cache for provider answers: every visitor's panel polls the same few
 * endpoints, so one provider call per key and period serves them all. Concurrent misses share
 * one call; failures are not cached, so recovery shows on the next poll.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
}

export function createTtlCache<T>(
  options: { ttlMs: number; maxEntries: number },
  now: () => number = Date.now,
): TtlCache<T> {
  const entries = new Map<string, { value: T; expires: number }>();
  const pending = new Map<string, Promise<T>>();

  function store(key: string, value: T) {
    entries.delete(key);
    entries.set(key, { value, expires: now() + options.ttlMs });
    // Map keeps insertion order: the first keys are the least recently stored.
    for (const oldest of entries.keys()) {
      if (entries.size <= options.maxEntries) break;
      entries.delete(oldest);
    }
  }

  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return Promise.resolve(hit.value);
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const call = load()
        .then((value) => {
          store(key, value);
          return value;
        })
        .finally(() => pending.delete(key));
      pending.set(key, call);
      return call;
    },
  };
}
