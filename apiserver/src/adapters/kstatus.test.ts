import { describe, it, expect } from '@jest/globals';
import {
  DATABASE_PHASES,
  type DatabaseInstance,
  type DatabasePhase,
} from '@internal/plugin-databases-common';
import { fallbackInstance } from '../cache/fallbackInstance';
import { applyRolloutMemory } from '../status/rolloutMemory';
import { kstatusConditionOf } from '../status/conditions';
import { toInstance } from '../status/toInstance';
import type { PhaseFacts } from '../status/facts';
import { compute, type KstatusStatus } from '../status/__testUtils__/kstatus';
import { THING_KIND } from '../status/__testUtils__/thingKind';
import { findAdapterForObject } from './registry';
import { listStatusFiles } from './__testUtils__/operatorFiles';
import type { Expectation } from './__testUtils__/statusExpectation';
import { EXPECTED, lookupFrom, objectsOf } from './__testUtils__/statusSamples';
import type { KubeObject } from './types';

/**
 * What Flux (kstatus, sigs.k8s.io/cli-utils/pkg/kstatus) must read for each phase
 * (docs/phases.md, "GitOps: kstatus"). `compute` is a transcription of kstatus's generic
 * algorithm (see ../status/__testUtils__/kstatus.ts); every object below is one the real
 * projection produced.
 */
const KSTATUS_OF: Record<DatabasePhase, KstatusStatus> = {
  Pending: 'InProgress',
  Provisioning: 'InProgress',
  Updating: 'InProgress',
  Ready: 'Current',
  Degraded: 'InProgress',
  Unknown: 'InProgress',
  Failed: 'Failed',
  Paused: 'Failed',
  Deleting: 'Terminating',
};

const reached = new Set<DatabasePhase>();

/**
 * What kstatus must say of a served instance: its phase's row, except that Terminating needs
 * the deletionTimestamp (an operator finalizing without one, InnoDB Cluster's FINALIZING, is
 * Deleting with Reconciling: InProgress).
 */
function expectedKstatus(instance: DatabaseInstance): KstatusStatus {
  const phase = instance.status!.phase;
  if (instance.metadata.deletionTimestamp) return KSTATUS_OF.Deleting;
  // the operator has not seen the latest spec yet: whatever its status says is about an older one
  const observed = instance.status!.observedGeneration;
  const generation = instance.metadata.generation;
  if (observed !== undefined && generation !== undefined && observed !== generation) return 'InProgress';
  return phase === 'Deleting' ? 'InProgress' : KSTATUS_OF[phase];
}

/**
 * Checks kstatus's verdict on a served instance (its phase's, with the instance's own words)
 * and returns it with the phase, for the test to assert.
 */
function checkedKstatus(instance: DatabaseInstance, label: string) {
  const phase = instance.status!.phase;
  reached.add(phase);
  const result = compute(instance);
  expect({ label, phase, kstatus: result.status }).toEqual({
    label,
    phase,
    kstatus: expectedKstatus(instance),
  });
  // and for the reason it states: the phase's own condition, not a fallback on Ready=False
  const expected = kstatusConditionOf(phase);
  expect(
    instance.status!.conditions?.filter(
      c => c.type === 'Reconciling' || c.type === 'Stalled',
    ),
  ).toEqual(
    expected
      ? [expect.objectContaining({ type: expected, status: 'True' })]
      : [],
  );
  if (result.status === 'InProgress' || result.status === 'Failed') {
    // Flux prints this message when it gives up or fails: it is the instance's own
    expect(result.message).toBe(instance.status!.message ?? '');
    expect(result.conditions[0]?.reason).toBe(instance.status!.reason);
  }
  return { phase, kstatus: result.status };
}

const sources = listStatusFiles().filter(
  f =>
    EXPECTED[f] &&
    !('notASource' in EXPECTED[f]) &&
    !('awaitingAdapter' in EXPECTED[f]),
);

function project(
  object: KubeObject,
  expectation: Expectation,
): DatabaseInstance {
  const found = findAdapterForObject(object.apiVersion, object.kind);
  if (!found)
    throw new Error(`no adapter for ${object.apiVersion} ${object.kind}`);
  return found.adapter.project(object, found.kind, lookupFrom(expectation));
}

describe('kstatus (Flux) reads every phase right', () => {
  it('has upstream status samples', () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  describe('the upstream status samples, projected', () => {
    it.each(sources)('%s', file => {
      const expectation = EXPECTED[file] as Expectation;
      for (const object of objectsOf(file, expectation)) {
        const instance = project(object, expectation);
        expect(checkedKstatus(instance, file)).toEqual({
          phase: expectation.phase,
          kstatus: KSTATUS_OF[expectation.phase],
        });
      }
    });

    it.each(sources)('%s, before the operator wrote any status', file => {
      const expectation = EXPECTED[file] as Expectation;
      for (const object of objectsOf(file, expectation)) {
        const { status: _status, ...fresh } = object;
        const instance = project(fresh, { ...expectation, related: [] });
        const { phase, kstatus } = checkedKstatus(instance, file);
        expect(kstatus).toBe(KSTATUS_OF[phase]);
      }
    });

    it.each(sources)('%s, once deletion started', file => {
      const expectation = EXPECTED[file] as Expectation;
      for (const object of objectsOf(file, expectation)) {
        const deleting = {
          ...object,
          metadata: {
            ...object.metadata,
            deletionTimestamp: '2026-12-01T00:00:00Z',
          },
        };
        const instance = project(deleting, expectation);
        expect(checkedKstatus(instance, file)).toEqual({
          phase: 'Deleting',
          kstatus: 'Terminating',
        });
      }
    });

    it.each(
      sources.filter(
        f => (EXPECTED[f] as Expectation).phase === 'Provisioning',
      ),
    )('%s, once Ready before (rollout memory: Updating)', file => {
      const expectation = EXPECTED[file] as Expectation;
      for (const object of objectsOf(file, expectation)) {
        const projected = project(object, expectation);
        const { instance } = applyRolloutMemory(
          {
            uid: projected.metadata.uid ?? '',
            bornWatched: false,
            everReady: true,
          },
          projected,
        );
        expect(checkedKstatus(instance, file)).toEqual({
          phase: 'Updating',
          kstatus: 'InProgress',
        });
      }
    });
  });

  describe('the phase table, through toInstance', () => {
    const kind = THING_KIND;
    const base: PhaseFacts = {
      deleting: false,
      hasStatus: true,
      onceReady: false,
    };
    const rows: Array<
      [DatabasePhase, Partial<PhaseFacts>, Record<string, unknown>]
    > = [
      ['Pending', { hasStatus: false }, {}],
      [
        'Provisioning',
        { operatorReady: false, readyMessage: 'Initializing' },
        {},
      ],
      ['Ready', { operatorReady: true, readyMessage: 'Running' }, {}],
      [
        'Updating',
        {
          operatorReady: true,
          progress: {
            reason: 'Updating',
            message: 'Scaling out',
            change: true,
          },
        },
        {},
      ],
      [
        'Degraded',
        {
          operatorReady: true,
          onceReady: true,
          unhealthy: {
            reason: 'GaleraRecovering',
            message: 'Recovering Galera cluster',
          },
        },
        {},
      ],
      [
        'Failed',
        {
          error: { reason: 'OperatorError', message: 'invalid storage class' },
        },
        {},
      ],
      [
        'Paused',
        {
          paused: {
            reason: 'Hibernated',
            message: 'Cluster has been hibernated',
          },
        },
        {},
      ],
      [
        'Unknown',
        {
          indeterminate: {
            reason: 'UnrecognizedStatus',
            message: 'status FOO',
          },
        },
        {},
      ],
      // an operator finalizing without a deletionTimestamp (InnoDB Cluster FINALIZING): Reconciling
      ['Deleting', { deleting: true }, {}],
      [
        'Deleting',
        { deleting: true },
        { deletionTimestamp: '2026-12-01T00:00:00Z' },
      ],
    ];
    /** A Thing at generation 3 of `replicas`, whose operator reported `observedGeneration` (if any). */
    const thing = (
      facts: Partial<PhaseFacts>,
      metadata: Record<string, unknown>,
      observedGeneration: number | undefined,
      replicas = 1,
    ) =>
      toInstance({
        operator: 'thing-operator',
        engine: 'redis',
        kind,
        source: {
          apiVersion: 'example.com/v1',
          kind: 'Thing',
          metadata: { name: 'orders', namespace: 'team-a', uid: 'u-1', generation: 3, ...metadata },
          spec: {},
          status: {},
        },
        spec: { version: '7.0', topology: 'standalone', replicas },
        facts: { ...base, ...facts },
        endpoints: [],
        observedGeneration,
      });

    it.each(rows)('%s %j %j', (phase, facts, metadata) => {
      const instance = thing(facts, metadata, 3);
      expect(instance.metadata.generation).toBe(3);
      expect(checkedKstatus(instance, phase)).toEqual({
        phase,
        kstatus:
          metadata.deletionTimestamp || phase !== 'Deleting'
            ? KSTATUS_OF[phase]
            : 'InProgress',
      });
    });

    it.each(rows.filter(([, , metadata]) => !metadata.deletionTimestamp))(
      'a status about an older generation of the operator object reads InProgress: %s %j',
      (phase, facts, metadata) => {
        const instance = thing(facts, metadata, 2);
        expect(instance.status!.phase).toBe(phase);
        expect(compute(instance)).toMatchObject({ status: 'InProgress', message: 'DatabaseInstance generation is 3, but latest observed generation is 2' });
      },
    );

    it.each([
      ['Updating', { everReady: true, settledSpec: '{"replicas":2}' }],
      ['Provisioning', { everReady: false, bornWatched: true }],
    ] as const)(
      'Degraded (ReplicasNotReady) the rollout memory turns %s',
      (phase, memory) => {
        const projected = thing({ onceReady: true, replicas: { desired: 3, ready: 2 } }, {}, undefined, 3);
        expect(projected.status?.phase).toBe('Degraded');
        const { instance } = applyRolloutMemory(
          { uid: 'u-1', bornWatched: false, ...memory },
          projected,
        );
        expect(checkedKstatus(instance, phase)).toEqual({
          phase,
          kstatus: 'InProgress',
        });
      },
    );

    it('an instance the adapter cannot read is Unknown, InProgress: never Current', () => {
      const instance = fallbackInstance(
        {
          adapter: { engine: 'redis', operator: 'redis-operator' } as never,
          kind,
        },
        {
          apiVersion: 'example.com/v1',
          kind: 'Thing',
          metadata: { name: 'x', namespace: 'y' },
        },
        new Error('boom'),
      );
      expect(checkedKstatus(instance, 'fallback')).toEqual({
        phase: 'Unknown',
        kstatus: 'InProgress',
      });
    });
  });

  it('reached every phase', () => {
    expect([...reached].sort()).toEqual([...DATABASE_PHASES].sort());
  });
});
