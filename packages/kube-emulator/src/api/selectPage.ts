import type { ObjectStore, ResourceDefinition, StoredObject } from '../store/types';
import { StoreError } from '../store/types';
import { matchesFields } from './fieldSelector';
import { matchesLabels } from './labelSelector';
import { decodeContinue, encodeContinue, type ListOptions } from './listOptions';
import { forgetSnapshot, indexAfter, listSnapshot } from './listSnapshots';

/** One page of a list: its items, the RV they are consistent with, and the continue token if any. */
export interface ListPage {
  items: StoredObject[];
  rv: number;
  continueToken?: string;
  remaining?: number;
}

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

const keyOf = (o: StoredObject) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name);

/**
 * The objects of `def` (in `namespace`) matching the options, as kube-apiserver pages them:
 * a continue token or an older `resourceVersion` reads the list as of that RV (410 when it is no
 * longer kept), `limit` pages it, and every page of a paged list comes from one snapshot (see
 * listSnapshot); `resourceVersion=0` ignores the limit, as the watch cache does.
 */
export function selectPage(store: ObjectStore, def: ResourceDefinition, namespace: string | undefined, opts: ListOptions): ListPage {
  const listAt = (at: number, expiredMessage: string) => {
    if (!store.listAt) throw new StoreError(410, 'Expired', expiredMessage);
    try {
      return store.listAt(def, namespace, at);
    } catch (e) {
      if (e instanceof StoreError && e.code === 410) throw new StoreError(410, 'Expired', expiredMessage);
      throw e;
    }
  };
  const matching = (all: StoredObject[]) =>
    all.filter(o => matchesLabels(opts.labelSelector, o.metadata.labels) && matchesFields(opts.fieldSelector, o));
  const requested = opts.resourceVersion === undefined ? undefined : Number(opts.resourceVersion);
  const paginated = opts.limit !== undefined && opts.limit > 0;
  let rv = store.currentRV();
  let start = '';
  let read: () => StoredObject[];
  if (opts.continueToken) {
    const pos = decodeContinue(opts.continueToken);
    rv = pos.rv;
    start = pos.start;
    read = () => listAt(pos.rv, CONTINUE_TOO_OLD);
  } else if (
    requested !== undefined &&
    requested > 0 &&
    requested < rv &&
    (opts.resourceVersionMatch === 'Exact' || (paginated && opts.resourceVersionMatch === undefined))
  ) {
    rv = requested;
    read = () => listAt(requested, 'The resourceVersion for the provided list is too old.');
  } else {
    read = () => store.list(def, namespace);
  }

  if (paginated && opts.resourceVersion !== '0') {
    const base = JSON.stringify([def.group, def.plural, def.version, namespace ?? '', rv]);
    const id = JSON.stringify([base, opts.labelSelector, opts.fieldSelector]);
    // the informers of one kind with different selectors (the operators' member pods) share the read
    const snapshot = listSnapshot(store, id, () => matching(listSnapshot(store, base, read, keyOf).items), keyOf);
    const from = indexAfter(snapshot.keys, start);
    const rest = snapshot.items.length - from;
    if (rest <= opts.limit!) {
      forgetSnapshot(store, id);
      return { items: snapshot.items.slice(from), rv };
    }
    const page = snapshot.items.slice(from, from + opts.limit!);
    return {
      items: page,
      rv,
      continueToken: encodeContinue({ rv, start: snapshot.keys[from + page.length - 1] }),
      remaining: rest - page.length,
    };
  }
  let items = matching(read());
  if (start) items = items.filter(o => keyOf(o) > start);
  return { items, rv };
}
