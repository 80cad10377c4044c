/**
 * One instance's mirrors, oldest first, as one flat array `[name, signature, name, signature…]`
 * of exactly their size (a new array per change: changes are one per event, reads many). At
 * 50,000 instances a Map per instance cost about 0.2 KiB each more (its hash table is sized for
 * 4 entries; most instances have one or two mirrors), as would an array grown by `push`.
 */
export type MirrorRing = ReadonlyArray<string | number>;

/** The signature the ring holds for `name`, if it holds it. */
export function ringGet(ring: MirrorRing | undefined, name: string): number | undefined {
  if (!ring) return undefined;
  for (let i = 0; i < ring.length; i += 2) if (ring[i] === name) return ring[i + 1] as number;
  return undefined;
}

/** The ring without the mirrors `keep` says no to (the same ring when it keeps them all). */
export function ringFilter(ring: MirrorRing, keep: (name: string) => boolean): MirrorRing {
  const kept: Array<string | number> = [];
  for (let i = 0; i < ring.length; i += 2) if (keep(ring[i] as string)) kept.push(ring[i], ring[i + 1]);
  return kept.length === ring.length ? ring : kept.slice();
}

/** The ring without `name`. */
export const ringDelete = (ring: MirrorRing, name: string): MirrorRing => ringFilter(ring, n => n !== name);

/**
 * The ring with `name` the newest (written again, it moves to the end), and the oldest beyond
 * `max` it dropped, for the caller to delete in the cluster.
 */
export function ringPut(
  ring: MirrorRing | undefined,
  name: string,
  signature: number,
  max: number,
): { ring: MirrorRing; dropped: string[] } {
  const others = ring ? ringDelete(ring, name) : [];
  const over = Math.max(0, others.length / 2 + 1 - max);
  const dropped: string[] = [];
  for (let i = 0; i < over; i++) dropped.push(others[2 * i] as string);
  return { ring: others.slice(2 * over).concat(name, signature), dropped };
}
