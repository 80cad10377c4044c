/**
 * Keys of objects by each of their `label=value` pairs, so a component's databases among
 * 10,000 are found without walking all of them (an entity's selector is one such pair).
 */
export class LabelIndex {
  private readonly byPair = new Map<string, Set<string>>();
  private readonly pairsOf = new Map<string, string[]>();

  /** Records `key` with `labels`, replacing what it had. */
  set(key: string, labels: Record<string, string> | undefined): void {
    this.delete(key);
    const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
    this.pairsOf.set(key, pairs);
    for (const p of pairs) {
      let keys = this.byPair.get(p);
      if (!keys) {
        keys = new Set();
        this.byPair.set(p, keys);
      }
      keys.add(key);
    }
  }

  delete(key: string): void {
    for (const p of this.pairsOf.get(key) ?? []) {
      const keys = this.byPair.get(p);
      keys?.delete(key);
      if (keys?.size === 0) this.byPair.delete(p);
    }
    this.pairsOf.delete(key);
  }

  /** Keys having every pair (a non-empty list); the smallest pair's set is the one walked. */
  keysWith(pairs: ReadonlyArray<readonly [string, string]>): string[] {
    const sets = pairs.map(([k, v]) => this.byPair.get(`${k}=${v}`));
    if (sets.some(s => !s)) return [];
    const [smallest, ...rest] = (sets as Set<string>[]).sort((a, b) => a.size - b.size);
    return [...smallest].filter(key => rest.every(s => s.has(key)));
  }
}
