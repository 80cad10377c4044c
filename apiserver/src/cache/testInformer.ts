import type { KubeObject, ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import type { InformerFactory, InformerHooks, ResourceInformer } from './ResourceInformer';

/** Driven by hand: the test plays kube-apiserver's list and watch. */
export class FakeInformer implements ResourceInformer {
  private readonly objects = new Map<string, KubeObject>();
  private readonly callbacks: Record<string, Array<(o?: any) => void>> = {
    add: [],
    update: [],
    delete: [],
    error: [],
  };
  starts = 0;
  running = false;

  constructor(readonly hooks: InformerHooks) {}

  on(verb: string, cb: (o?: any) => void): void {
    this.callbacks[verb].push(cb);
  }
  async start() {
    this.starts++;
    this.running = true;
  }
  async stop() {
    this.running = false;
  }
  get(name: string, namespace?: string) {
    return this.objects.get(`${namespace ?? ''}/${name}`);
  }
  list() {
    return [...this.objects.values()];
  }
  listed(...items: KubeObject[]) {
    this.listedAt(undefined, ...items);
  }
  listedAt(listRv: string | undefined, ...items: KubeObject[]) {
    items.forEach(i => this.upsert(i));
    this.hooks.onListed(listRv);
  }
  upsert(o: KubeObject) {
    const key = `${o.metadata!.namespace ?? ''}/${o.metadata!.name}`;
    const had = this.objects.has(key);
    this.objects.set(key, o);
    this.callbacks[had ? 'update' : 'add'].forEach(cb => cb(o));
  }
  remove(o: KubeObject) {
    this.objects.delete(`${o.metadata!.namespace ?? ''}/${o.metadata!.name}`);
    this.callbacks.delete.forEach(cb => cb(o));
  }
  fail(err: unknown) {
    this.callbacks.error.forEach(cb => cb(err));
  }
}


/** An informer factory of {@link FakeInformer}s, and each one made, by `plural.group`. */
export function fakeInformers(): { factory: InformerFactory; informers: Map<string, FakeInformer>; of(type: { group: string; plural: string }): FakeInformer } {
  const informers = new Map<string, FakeInformer>();
  return {
    informers,
    factory: (type: ResourceType, hooks) => {
      const f = new FakeInformer(hooks);
      informers.set(resourceName(type), f);
      return f;
    },
    of: type => informers.get(resourceName(type))!,
  };
}
