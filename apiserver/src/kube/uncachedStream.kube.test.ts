import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../adapters/types';
import { UncachedStream, type StreamPhase } from './uncachedStream';
import { useBareEmulator } from './__testUtils__/useBareEmulator';

const EVENTS = { group: '', version: 'v1', plural: 'events', kind: 'Event' };

const eventNamed = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
  reason: 'Test',
  message: name,
});

describe('UncachedStream against the kube emulator', () => {
  const bare = useBareEmulator();

  /** Resolves when `pred` holds over what was observed, checked on each observation. */
  function reader() {
    const seen: Array<[StreamPhase, string]> = [];
    const counts = { relisting: 0, listed: 0 };
    let waiting: { pred: () => boolean; resolve: () => void } | undefined;
    const check = () => {
      if (waiting?.pred()) {
        waiting.resolve();
        waiting = undefined;
      }
    };
    return {
      seen,
      counts,
      until: (pred: () => boolean) => new Promise<void>(resolve => {
        waiting = { pred, resolve };
        check();
      }),
      observe: (o: KubeObject, phase: StreamPhase) => {
        seen.push([phase, o.metadata?.name ?? '']);
        check();
      },
      relisting: () => {
        counts.relisting++;
      },
      listed: () => {
        counts.listed++;
        check();
      },
    };
  }

  it('lists in pages, then watches from the list; after a watch expiry (410) it lists again', async () => {
    for (let i = 0; i < 1203; i++) bare.emulator.store.create(EVENTS, eventNamed(`listed-${i}`));
    const r = reader();
    const stream = new UncachedStream(bare.kc, EVENTS, r);
    try {
      await stream.start();
      expect(r.counts).toEqual({ relisting: 1, listed: 1 });
      expect(r.seen.filter(([p]) => p === 'ADDED')).toHaveLength(1203);
      bare.emulator.store.create(EVENTS, eventNamed('watched'));
      await r.until(() => r.seen.some(([p, n]) => p === 'ADDED' && n === 'watched'));
      bare.emulator.store.delete(EVENTS, 'default', 'watched');
      await r.until(() => r.seen.some(([p, n]) => p === 'DELETED' && n === 'watched'));

      bare.emulator.expireWatches();
      bare.emulator.store.create(EVENTS, eventNamed('after-expiry'));
      await r.until(() => r.counts.listed === 2 && r.seen.some(([, n]) => n === 'after-expiry'));
      expect(r.counts.relisting).toBe(2);
    } finally {
      await stream.stop();
    }
  }, 60_000);

  it('metadata only: a Secret listed or watched arrives without its values', async () => {
    const SECRETS = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
    const secret = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: 'default', labels: { app: 'x' } },
      data: { password: Buffer.from('hunter2').toString('base64') },
    });
    bare.emulator.store.create(SECRETS, secret('listed-secret'));
    const objects: KubeObject[] = [];
    let notify = () => {};
    const stream = new UncachedStream(
      bare.kc,
      SECRETS,
      {
        observe: o => {
          objects.push(o);
          notify();
        },
      },
      { metadataOnly: true },
    );
    try {
      await stream.start();
      const watched = new Promise<void>(resolve => {
        notify = () => objects.some(o => o.metadata?.name === 'watched-secret') && resolve();
      });
      bare.emulator.store.create(SECRETS, secret('watched-secret'));
      await watched;
      const mine = objects.filter(o => /-secret$/.test(o.metadata?.name ?? ''));
      expect(mine.map(o => o.metadata?.name)).toEqual(['listed-secret', 'watched-secret']);
      for (const o of mine) {
        expect(o.kind).toBe('PartialObjectMetadata');
        expect(o.metadata).toMatchObject({ namespace: 'default', labels: { app: 'x' }, resourceVersion: expect.any(String) });
        expect(JSON.stringify(o)).not.toContain(Buffer.from('hunter2').toString('base64'));
      }
    } finally {
      await stream.stop();
    }
  }, 30_000);
});
