import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { kubeHttp } from './kubeHttp';
import { seen, type StreamRecord } from './checkEventStream';

/**
 * A @kubernetes/client-node informer (its `ListWatch`, what `makeInformer` returns) that also
 * records every list and every raw watch event it receives, before the informer's own cache
 * folds them into add/update/delete callbacks: duplicates and missing events stay visible.
 */
export class RecordingInformer {
  readonly records: StreamRecord[] = [];
  readonly errors: unknown[] = [];
  private readonly informer: ListWatch<KubernetesObject>;
  private stopped = false;

  constructor(kc: KubeConfig, path: string) {
    const watch = new Watch(kc);
    const recording = {
      watch: (p: string, query: Record<string, string | number | boolean | undefined>, cb: (phase: string, obj: any, raw: any) => void, done: (err: unknown) => void) => {
        this.records.push({ kind: 'watch', from: String(query.resourceVersion ?? '') });
        return watch.watch(
          p,
          query,
          (phase, obj, raw) => {
            if (phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED') {
              this.records.push({ kind: 'event', type: phase, object: seen(obj) });
            } else if (phase === 'ERROR') {
              this.records.push({ kind: 'error', code: obj?.code });
            }
            cb(phase, obj, raw);
          },
          done,
        );
      },
    } as unknown as Watch;
    const list = async (): Promise<KubernetesListObject<KubernetesObject>> => {
      const res = await kubeHttp(kc, 'GET', path);
      if (res.status !== 200) throw Object.assign(new Error(`list ${path}: HTTP ${res.status}`), { statusCode: res.status });
      this.records.push({ kind: 'list', resourceVersion: res.body.metadata.resourceVersion, items: res.body.items.map(seen) });
      return res.body;
    };
    this.informer = new ListWatch(path, recording, list, false);
    this.informer.on('error', err => {
      this.errors.push(err);
      // client-node informers stop on errors other than 410; a real client restarts them
      setTimeout(() => {
        if (!this.stopped) this.informer.start().catch(e => this.errors.push(e));
      }, 500).unref();
    });
  }

  start(): Promise<void> {
    this.stopped = false;
    return this.informer.start();
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.informer.stop();
  }

  /** The informer's cache. */
  list(): readonly KubernetesObject[] {
    return this.informer.list();
  }

  /** How many times it listed (1 = never re-listed). */
  lists(): number {
    return this.records.filter(r => r.kind === 'list').length;
  }
}
