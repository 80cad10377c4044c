/**
 * Serialises async work per key within this process (creates and updates of one
 * namespace/name), so concurrent requests to one replica cannot race each other; across
 * replicas kube-apiserver's own 409s decide.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier `run` of the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests). */
  size(): number {
    return this.tails.size;
  }
}
