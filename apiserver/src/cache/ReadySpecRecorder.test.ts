import { describe, expect, it } from '@jest/globals';
import type {
  DatabaseInstance,
  DatabasePhase,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../adapters/types';
import { KubeHttpError } from '../kube/kubeRequest';
import { rolloutSignature } from '../status/rolloutMemory';
import { ReadySpecRecorder } from './ReadySpecRecorder';
import { FailedRestoreRecorder } from './FailedRestoreRecorder';
import type { InstanceEvent, InstanceSource } from './types';

const KIND: SourceKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'mariadbs',
  kind: 'MariaDB',
  topologies: ['standalone'],
};
const ANNOTATION = 'dbaas.platform.dev/ready-spec';

const instance = (phase: DatabasePhase, replicas = 3): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: {
    name: 'orders',
    namespace: 'team-a',
    uid: 'u-1',
    resourceVersion: '10',
  },
  spec: { engine: 'mariadb', replicas, version: '11.4' },
  status: {
    phase,
    source: {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      name: 'orders',
      operator: 'mariadb-operator',
    },
  },
});

/** A store holding one instance and its operator object, whose watch the test drives. */
function fakeStore(
  served: DatabaseInstance,
  annotations: Record<string, string> = {},
) {
  let watcher: ((e: InstanceEvent) => void) | undefined;
  let synced!: () => void;
  const syncedAt = new Promise<void>(r => (synced = r));
  const object: KubeObject = {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'MariaDB',
    metadata: {
      name: 'orders',
      namespace: 'team-a',
      uid: 'u-1',
      resourceVersion: '41',
      annotations,
    },
  };
  const state = { served, object };
  return {
    state,
    synced,
    emit(next: DatabaseInstance) {
      state.served = next;
      watcher?.({ type: 'MODIFIED', object: next, resourceVersion: '11' });
    },
    store: {
      whenSynced: () => syncedAt,
      list: () => [state.served],
      get: () => state.served,
      source: (): InstanceSource => ({
        object: state.object,
        kind: KIND,
        adapter: {} as any,
      }),
      watch: (_rv: string | undefined, onEvent: (e: InstanceEvent) => void) => {
        watcher = onEvent;
        return { stop: () => (watcher = undefined) };
      },
    },
  };
}

function recordingWriter(answer: () => Promise<KubeObject> = async () => ({})) {
  const patches: Array<{
    type: string;
    namespace: string;
    name: string;
    patch: any;
  }> = [];
  return {
    patches,
    writer: {
      mergePatch: (
        type: SourceKind,
        namespace: string,
        name: string,
        patch: unknown,
      ) => {
        patches.push({ type: type.plural, namespace, name, patch });
        return answer();
      },
    },
  };
}

describe('ReadySpecRecorder', () => {
  it('records the Ready spec of every Ready instance once synced, guarded by the object resourceVersion', async () => {
    const cluster = fakeStore(instance('Ready'));
    const { patches, writer } = recordingWriter();
    const recorder = new ReadySpecRecorder({ store: cluster.store, writer });
    const started = recorder.start();
    cluster.synced();
    await started;
    await recorder.idle();
    expect(patches).toEqual([
      {
        type: 'mariadbs',
        namespace: 'team-a',
        name: 'orders',
        patch: {
          metadata: {
            resourceVersion: '41',
            annotations: { [ANNOTATION]: rolloutSignature(instance('Ready')) },
          },
        },
      },
    ]);
    recorder.stop();
  });

  it('writes only on the transition: not while not Ready, not when the record already says it', async () => {
    const cluster = fakeStore(instance('Provisioning'), {
      [ANNOTATION]: rolloutSignature(instance('Ready', 3)),
    });
    const { patches, writer } = recordingWriter();
    const recorder = new ReadySpecRecorder({ store: cluster.store, writer });
    cluster.synced();
    await recorder.start();
    cluster.emit(instance('Updating', 5));
    cluster.emit(instance('Ready', 3));
    await recorder.idle();
    expect(patches).toEqual([]);
    cluster.emit(instance('Ready', 5));
    cluster.emit(instance('Ready', 5)); // a burst while the first write is in flight
    await recorder.idle();
    expect(patches.map(p => p.patch.metadata.annotations[ANNOTATION])).toEqual([
      rolloutSignature(instance('Ready', 5)),
    ]);
    recorder.stop();
  });

  /** A recorder whose every write kube-apiserver refuses with `code`, started on a Ready instance. */
  async function refusedWith(code: number) {
    const cluster = fakeStore(instance('Ready'));
    const warnings: string[] = [];
    const { patches, writer } = recordingWriter(() =>
      Promise.reject(
        new KubeHttpError(
          code,
          JSON.stringify({
            kind: 'Status',
            code,
            message: code === 403 ? 'forbidden' : 'x',
          }),
        ),
      ),
    );
    const recorder = new ReadySpecRecorder({
      store: cluster.store,
      writer,
      logger: { info: () => {}, warn: m => warnings.push(m) },
    });
    cluster.synced();
    await recorder.start();
    await recorder.idle();
    return { cluster, patches, warnings, recorder };
  }

  it.each([409, 404])(
    'drops a %s (another replica won, the object moved on or is gone) quietly',
    async code => {
      const { patches, warnings, recorder } = await refusedWith(code);
      expect({ patches: patches.length, warnings }).toEqual({
        patches: 1,
        warnings: [],
      });
      recorder.stop();
    },
  );

  it('without permission to patch, says so once and stops writing', async () => {
    const { cluster, patches, warnings, recorder } = await refusedWith(403);
    cluster.emit(instance('Ready', 5));
    await recorder.idle();
    expect(patches).toHaveLength(1);
    expect(warnings).toEqual([expect.stringContaining('forbidden')]);
    recorder.stop();
  });

  it('retries a write that failed for another reason (a timeout, a 5xx) until it lands', async () => {
    const cluster = fakeStore(instance('Ready'));
    let calls = 0;
    let landed!: () => void;
    const retried = new Promise<void>(r => (landed = r));
    const { patches, writer } = recordingWriter(() => {
      if (++calls === 1)
        return Promise.reject(
          new KubeHttpError(
            503,
            JSON.stringify({ kind: 'Status', code: 503, message: 'busy' }),
          ),
        );
      landed();
      return Promise.resolve({});
    });
    const warnings: string[] = [];
    const recorder = new ReadySpecRecorder({
      store: cluster.store,
      writer,
      retryMs: 10,
      logger: { info: () => {}, warn: m => warnings.push(m) },
    });
    cluster.synced();
    await recorder.start();
    await recorder.idle();
    await retried;
    await recorder.idle();
    expect(patches).toHaveLength(2);
    expect(warnings).toEqual([expect.stringContaining('retrying')]);
    recorder.stop();
  });

  it('writes at most maxInFlight at once, and each instance of a burst once', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({
      ...instance('Ready'),
      metadata: {
        ...instance('Ready').metadata,
        name: `db-${i}`,
        uid: `u-${i}`,
      },
    }));
    let open = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const patches: string[] = [];
    const recorder = new ReadySpecRecorder({
      maxInFlight: 3,
      store: {
        whenSynced: async () => {},
        list: () => many,
        get: (_ns: string, name: string) =>
          many.find(i => i.metadata.name === name),
        source: (_ns: string, name: string): InstanceSource => ({
          object: {
            metadata: {
              name,
              namespace: 'team-a',
              uid: many.find(i => i.metadata.name === name)!.metadata.uid,
              resourceVersion: '1',
            },
          },
          kind: KIND,
          adapter: {} as any,
        }),
        watch: () => ({ stop: () => {} }),
      },
      writer: {
        mergePatch: (_t: SourceKind, _ns: string, name: string) => {
          patches.push(name);
          most = Math.max(most, ++open);
          return new Promise<KubeObject>(r =>
            release.push(() => {
              open--;
              r({});
            }),
          );
        },
      },
    });
    await recorder.start();
    expect(patches).toHaveLength(3);
    while (release.length) {
      release.shift()!();
      await new Promise(r => setImmediate(r));
    }
    await recorder.idle();
    expect({ most, written: [...patches].sort() }).toEqual({
      most: 3,
      written: many.map(i => i.metadata.name!).sort(),
    });
    recorder.stop();
  });
});

describe('FailedRestoreRecorder', () => {
  const RESTORE_FAILED = 'dbaas.platform.dev/restore-failed';
  const failed = (reason: string, message = 'Restore orders-restore: Failed'): DatabaseInstance => {
    const i = instance('Failed');
    return { ...i, status: { ...i.status!, reason, message } };
  };
  /** A recorder over `cluster`, started and synced. */
  const started = async (cluster: ReturnType<typeof fakeStore>) => {
    const { patches, writer } = recordingWriter();
    const recorder = new FailedRestoreRecorder({ store: cluster.store, writer });
    const starting = recorder.start();
    cluster.synced();
    await starting;
    return { patches, recorder };
  };

  it('records a restore seen failing, in the words the instance said it, over whatever version the object is now', async () => {
    const { patches, recorder } = await started(fakeStore(failed('RestoreFailed')));
    await recorder.idle();
    expect(patches.map(p => p.patch)).toEqual([
      { metadata: { annotations: { [RESTORE_FAILED]: 'Restore orders-restore: Failed' } } },
    ]);
    recorder.stop();
  });

  it('records the failure it was told of even when the instance has moved on by the time the write starts', async () => {
    const cluster = fakeStore(instance('Provisioning'));
    const { patches, recorder } = await started(cluster);
    // the store already serves the next state (the operator deleted the Restore) when the event comes
    cluster.store.get = () => instance('Provisioning');
    cluster.emit(failed('RestoreFailed'));
    await recorder.idle();
    expect(patches.map(p => p.patch.metadata.annotations)).toEqual([{ [RESTORE_FAILED]: 'Restore orders-restore: Failed' }]);
    recorder.stop();
  });

  it('writes nothing for another failure, a Ready instance, or a failure already recorded', async () => {
    for (const [served, annotations] of [
      [failed('ImagePullBackOff'), {}],
      [instance('Ready'), {}],
      [failed('RestoreFailed'), { [RESTORE_FAILED]: 'Restore orders-restore: Failed' }],
    ] as const) {
      const { patches, recorder } = await started(fakeStore(served, annotations));
      await recorder.idle();
      expect({ reason: served.status?.reason ?? served.status?.phase, patches }).toEqual({ reason: served.status?.reason ?? served.status?.phase, patches: [] });
      recorder.stop();
    }
  });
});
