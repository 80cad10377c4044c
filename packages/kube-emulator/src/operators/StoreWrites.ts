import { jsonEqual as deepEqual } from '../store/jsonEqual';
import type { ObjectStore, ResourceKey, StoredObject } from '../store/types';
import { kubeTime } from './batch/jobRun';
import { isOwnedBy } from './dependentObjects';
import { memberEventName, type MemberEvent } from './memberEvents';

export const STATEFULSETS: ResourceKey = { group: 'apps', version: 'v1', plural: 'statefulsets' };
export const DEPLOYMENTS: ResourceKey = { group: 'apps', version: 'v1', plural: 'deployments' };
export const SERVICES: ResourceKey = { group: '', version: 'v1', plural: 'services' };
export const SECRETS: ResourceKey = { group: '', version: 'v1', plural: 'secrets' };
export const PODS: ResourceKey = { group: '', version: 'v1', plural: 'pods' };
export const EVENTS: ResourceKey = { group: '', version: 'v1', plural: 'events' };
export const CLAIMS: ResourceKey = { group: '', version: 'v1', plural: 'persistentvolumeclaims' };

// Pods and claims last: the StatefulSets they belong to are found first (garbage collection).
const DEPENDENT_KINDS = [STATEFULSETS, DEPLOYMENTS, SERVICES, SECRETS, PODS, CLAIMS];

export const errorCode = (e: unknown): number | undefined =>
  (e as { code?: number })?.code;

/**
 * The emulated operators' writes to the store, as a controller makes them: create or bring an
 * object's spec and status to what it should be (writing only what differs), with the current
 * resourceVersion, re-read and retried on 409 Conflict; delete what an object owns, as
 * ownerReference garbage collection would; record an event once.
 */
export class StoreWrites {
  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => Date,
  ) {}

  deleteDependents(namespace: string, uid: string): number {
    let changes = 0;
    const owners = new Set([uid]);
    for (const key of DEPENDENT_KINDS) {
      if (!this.store.resource(key)) continue;
      for (const obj of this.store.list(key, namespace)) {
        if (![...owners].some(o => isOwnedBy(obj, o))) continue;
        // the pods of a StatefulSet go with it
        if (key === STATEFULSETS) owners.add(obj.metadata.uid);
        try {
          this.store.delete(key, namespace, obj.metadata.name);
          changes++;
        } catch (e) {
          if (errorCode(e) !== 404) throw e;
        }
      }
    }
    return changes;
  }


  /** Writes each event once (a fault that holds is one event, as kube would count it). */
  recordEvents(events: MemberEvent[], namespace: string): number {
    if (!this.store.resource(EVENTS)) return 0;
    let changes = 0;
    const now = kubeTime(this.now());
    for (const e of events) {
      const name = memberEventName(e);
      if (this.store.peek(EVENTS, namespace, name)) continue;
      this.store.create(EVENTS, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: { ...e.about, namespace },
        reason: e.reason,
        message: e.message,
        type: e.type,
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: e.component, ...(e.component === 'kubelet' && { host: 'emulator-node' }) },
      });
      changes++;
    }
    return changes;
  }


  /** Creates the object or brings its spec, labels and ownerReferences to `body`'s. */
  upsertSpec(
    key: ResourceKey,
    body: Record<string, any>,
  ): { obj: StoredObject; changed: number } {
    // only compared here, and copied before any change (updateMain)
    const existing = this.store.peek(
      key,
      body.metadata.namespace,
      body.metadata.name,
    );
    if (!existing) return { obj: this.store.create(key, body), changed: 1 };
    if (
      deepEqual(existing.spec, body.spec) &&
      deepEqual(
        existing.metadata.ownerReferences,
        body.metadata.ownerReferences,
      ) &&
      deepEqual(existing.metadata.labels, body.metadata.labels)
    ) {
      return { obj: existing, changed: 0 };
    }
    const obj = this.updateMain(key, existing, o => {
      o.spec = body.spec;
      o.metadata.labels = body.metadata.labels;
      o.metadata.ownerReferences = body.metadata.ownerReferences;
    });
    return { obj, changed: 1 };
  }

  upsertStatus(
    key: ResourceKey,
    obj: StoredObject,
    status: Record<string, unknown>,
  ): number {
    if (deepEqual(obj.status, status)) return 0;
    this.retry(key, obj, latest => {
      const sub = this.store.resource(key)?.statusSubresource;
      return this.store.update(
        key,
        { ...latest, status },
        sub ? { subresource: 'status' } : undefined,
      );
    });
    return 1;
  }


  updateMain(
    key: ResourceKey,
    obj: StoredObject,
    mutate: (o: StoredObject) => void,
  ): StoredObject {
    return this.retry(key, obj, latest => {
      const copy = structuredClone(latest);
      mutate(copy);
      return this.store.update(key, copy);
    });
  }

  /** Writes with the current resourceVersion, re-reading and retrying on 409 Conflict. */
  retry(
    key: ResourceKey,
    obj: StoredObject,
    write: (latest: StoredObject) => StoredObject,
  ): StoredObject {
    let latest = obj;
    for (let attempt = 0; ; attempt++) {
      try {
        return write(latest);
      } catch (e) {
        if (errorCode(e) !== 409 || attempt >= 4) throw e;
        const fresh = this.store.get(
          key,
          obj.metadata.namespace,
          obj.metadata.name,
        );
        if (!fresh) throw e;
        latest = fresh;
      }
    }
  }
}
