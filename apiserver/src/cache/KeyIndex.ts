/**
 * A map from a key to the set of values filed under it, keeping a lone value as itself: nearly
 * every related object and name group has one source object, and a Set per key cost about
 * 100 bytes each at tens of thousands of keys (`yarn bench`, memory and members groups).
 */
export class KeyIndex {
  private readonly map = new Map<string, string | Set<string>>();

  add(key: string, value: string): void {
    const held = this.map.get(key);
    if (held === undefined || held === value) this.map.set(key, value);
    else if (typeof held === 'string') this.map.set(key, new Set([held, value]));
    else held.add(value);
  }

  remove(key: string, value: string): void {
    const held = this.map.get(key);
    if (held === value) this.map.delete(key);
    else if (typeof held !== 'string' && held) {
      held.delete(value);
      if (held.size === 1) this.map.set(key, held.values().next().value!);
      else if (held.size === 0) this.map.delete(key);
    }
  }

  /** The values filed under `key`, in the order they were added. */
  get(key: string): string[] {
    const held = this.map.get(key);
    if (held === undefined) return [];
    return typeof held === 'string' ? [held] : [...held];
  }
}
