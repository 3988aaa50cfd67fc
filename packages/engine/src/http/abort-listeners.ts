/** The listeners each signal has through `onAbort`, behind one event listener of its own. */
const listenersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts; answers how to stop listening. A run's signal is
 * shared by every request the run sends: a set behind one event listener per signal costs less
 * per request than adding and removing an event listener, and needs no raised listener limit.
 * @example
 * const stop = onAbort(signal, () => request.abort());
 * // … the request ends:
 * stop();
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = listenersOf.get(signal);
  if (listeners === undefined) {
    const created = new Set<() => void>();
    listeners = created;
    listenersOf.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        const called = [...created];
        created.clear();
        for (const each of called) each();
      },
      { once: true },
    );
  }
  const set = listeners;
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}
