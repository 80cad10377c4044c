/** What a client saw of one object in a list or a watch event. */
export interface SeenObject {
  /** `namespace/name` */
  key: string;
  uid: string;
  resourceVersion: string;
  /** The object without metadata.resourceVersion, to tell real changes from repeats. */
  content: string;
}

/** One thing a list-then-watch client received, in order. */
export type StreamRecord =
  | { kind: 'list'; resourceVersion: string; items: SeenObject[] }
  | { kind: 'watch'; from: string }
  | { kind: 'event'; type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: SeenObject }
  | { kind: 'error'; code?: number };

/** The result of {@link checkEventStream}: every inconsistency, and the state the stream builds. */
export interface StreamCheck {
  violations: string[];
  state: Map<string, SeenObject>;
  events: number;
  lists: number;
}

/**
 * Replays what a client received and reports every event a correct server would not have sent:
 * ADDED for a key already present (without a DELETED between), MODIFIED or DELETED for an
 * absent key, a MODIFIED that changes nothing but the resourceVersion (a duplicate), a MODIFIED
 * that swaps the uid (a re-created object must be DELETED then ADDED), a MODIFIED that changes
 * the object at the resourceVersion the client already holds (clients drop it), and resourceVersions
 * going backwards within one watch. A list replaces the state (that is what a re-list means).
 * Pure.
 */
export function checkEventStream(records: StreamRecord[]): StreamCheck {
  const state = new Map<string, SeenObject>();
  const violations: string[] = [];
  let lastRv = 0n;
  let events = 0;
  let lists = 0;
  records.forEach((r, i) => {
    if (r.kind === 'list') {
      lists++;
      state.clear();
      for (const item of r.items) state.set(item.key, item);
      lastRv = BigInt(r.resourceVersion || '0');
      return;
    }
    if (r.kind === 'watch') {
      lastRv = BigInt(r.from || '0');
      return;
    }
    if (r.kind === 'error') return;
    events++;
    const { key } = r.object;
    const rv = BigInt(r.object.resourceVersion || '0');
    const at = `#${i} ${r.type} ${key}@${r.object.resourceVersion}`;
    if (rv < lastRv) violations.push(`${at}: resourceVersion went back from ${lastRv}`);
    lastRv = rv > lastRv ? rv : lastRv;
    const current = state.get(key);
    if (r.type === 'ADDED') {
      if (current) violations.push(`${at}: ADDED for a key already present (uid ${current.uid})`);
      state.set(key, r.object);
    } else if (r.type === 'MODIFIED') {
      if (!current) violations.push(`${at}: MODIFIED for an absent key`);
      else if (current.uid !== r.object.uid) violations.push(`${at}: MODIFIED changed the uid ${current.uid} → ${r.object.uid}`);
      else if (current.content === r.object.content) violations.push(`${at}: MODIFIED with nothing changed (a duplicate)`);
      // client-node (and client-go handlers comparing RVs) drop it: the client keeps the old object
      else if (current.resourceVersion === r.object.resourceVersion) violations.push(`${at}: MODIFIED changed the object at the resourceVersion the client holds`);
      state.set(key, r.object);
    } else {
      if (!current) violations.push(`${at}: DELETED for an absent key`);
      state.delete(key);
    }
  });
  return { violations, state, events, lists };
}

/** A Kubernetes object as {@link SeenObject}. */
export function seen(obj: any): SeenObject {
  const { resourceVersion: _rv, ...metadata } = obj?.metadata ?? {};
  return {
    key: `${metadata.namespace ?? ''}/${metadata.name}`,
    uid: metadata.uid ?? '',
    resourceVersion: obj?.metadata?.resourceVersion ?? '',
    content: JSON.stringify({ ...obj, metadata }),
  };
}
