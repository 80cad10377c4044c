import { describe, it, expect } from '@jest/globals';
import fc from 'fast-check';
import type { HealthColour, PhaseFacts } from './facts';
import { decidePhase, matchRule, PHASE_RULES } from './phaseTable';

const base: PhaseFacts = { deleting: false, hasStatus: true, onceReady: false };
const facts = (over: Partial<PhaseFacts>): PhaseFacts => ({ ...base, ...over });

describe('decidePhase', () => {
  it.each<[string, Partial<PhaseFacts>, ReturnType<typeof decidePhase>]>([
    [
      'no status at all',
      { hasStatus: false },
      {
        phase: 'Pending',
        reason: 'AwaitingOperator',
        message: 'The operator has not reported any status yet',
      },
    ],
    [
      'no status even with ready-looking counts',
      { hasStatus: false, replicas: { desired: 1, ready: 1 } },
      {
        phase: 'Pending',
        reason: 'AwaitingOperator',
        message: 'The operator has not reported any status yet',
      },
    ],
    [
      'deleting beats an error',
      { deleting: true, error: { reason: 'OperatorError', message: 'boom' } },
      { phase: 'Deleting', reason: 'DeletionInProgress' },
    ],
    [
      'hibernated with a healthy-looking status',
      {
        paused: {
          reason: 'Hibernated',
          message: 'Cluster has been hibernated',
        },
        operatorReady: true,
        replicas: { desired: 3, ready: 0 },
        onceReady: true,
      },
      {
        phase: 'Paused',
        reason: 'Hibernated',
        message: 'Cluster has been hibernated',
      },
    ],
    [
      'deleting beats no status',
      { deleting: true, hasStatus: false },
      { phase: 'Deleting', reason: 'DeletionInProgress' },
    ],
    [
      'operator error, verbatim message',
      {
        error: { reason: 'OperatorError', message: 'Error creating ConfigMap' },
        operatorReady: true,
      },
      {
        phase: 'Failed',
        reason: 'OperatorError',
        message: 'Error creating ConfigMap',
      },
    ],
    [
      'red health',
      { health: 'red', operatorReady: true },
      {
        phase: 'Failed',
        reason: 'HealthRed',
        message: 'Cluster health is red',
      },
    ],
    [
      'red while a new cluster is being created',
      { health: 'red', progress: { reason: 'ApplyingChanges' } },
      { phase: 'Provisioning', reason: 'ApplyingChanges' },
    ],
    [
      'red on a once-ready cluster even while changing',
      {
        health: 'red',
        onceReady: true,
        progress: { reason: 'ApplyingChanges' },
      },
      {
        phase: 'Failed',
        reason: 'HealthRed',
        message: 'Cluster health is red',
      },
    ],
    [
      'unknown health on a running cluster',
      { health: 'unknown', onceReady: true },
      {
        phase: 'Unknown',
        reason: 'HealthUnknown',
        message: 'Cluster health is unknown',
      },
    ],
    [
      'unknown health while being created',
      { health: 'unknown', progress: { reason: 'ApplyingChanges' } },
      { phase: 'Provisioning', reason: 'ApplyingChanges' },
    ],
    [
      'nothing serving on a once-ready instance',
      {
        onceReady: true,
        notServing: { reason: 'NoEndpointsAvailable', message: 'no endpoints' },
      },
      {
        phase: 'Failed',
        reason: 'NoEndpointsAvailable',
        message: 'no endpoints',
      },
    ],
    [
      'zero of three ready on a once-ready instance',
      { onceReady: true, replicas: { desired: 3, ready: 0 } },
      {
        phase: 'Failed',
        reason: 'NoReplicasReady',
        message: '0/3 replicas ready',
      },
    ],
    [
      'zero of three ready on a new instance',
      { replicas: { desired: 3, ready: 0 } },
      {
        phase: 'Provisioning',
        reason: 'ReplicasNotReady',
        message: '0/3 replicas ready',
      },
    ],
    [
      'nothing serving on a new instance, no counts',
      { notServing: { reason: 'NoEndpointsAvailable' } },
      { phase: 'Provisioning', reason: 'NoEndpointsAvailable' },
    ],
    [
      'galera recovering',
      {
        unhealthy: { reason: 'GaleraRecovering', message: 'Galera not ready' },
        operatorReady: false,
      },
      {
        phase: 'Degraded',
        reason: 'GaleraRecovering',
        message: 'Galera not ready',
      },
    ],
    [
      'first creation in progress',
      { progress: { reason: 'Initializing', message: 'init' } },
      { phase: 'Provisioning', reason: 'Initializing', message: 'init' },
    ],
    [
      'progress on a once-ready instance',
      { onceReady: true, progress: { reason: 'ApplyingChanges' } },
      { phase: 'Updating', reason: 'ApplyingChanges' },
    ],
    [
      'a change by nature',
      { progress: { reason: 'ResizingStorage', change: true } },
      { phase: 'Updating', reason: 'ResizingStorage' },
    ],
    [
      'a scale-up explains missing replicas',
      {
        onceReady: true,
        progress: { reason: 'ScalingOut', change: true },
        replicas: { desired: 5, ready: 3 },
      },
      { phase: 'Updating', reason: 'ScalingOut' },
    ],
    [
      'generation not yet observed',
      {
        onceReady: true,
        operatorReady: true,
        generation: 3,
        observedGeneration: 2,
      },
      {
        phase: 'Updating',
        reason: 'GenerationNotObserved',
        message: 'The operator has observed generation 2 of 3',
      },
    ],
    [
      'generation observed',
      { operatorReady: true, generation: 3, observedGeneration: 3 },
      { phase: 'Ready', reason: 'AllReplicasReady' },
    ],
    [
      'yellow health',
      { health: 'yellow', operatorReady: true },
      {
        phase: 'Degraded',
        reason: 'HealthYellow',
        message: 'Cluster health is yellow',
      },
    ],
    [
      'fewer ready on a once-ready instance',
      {
        onceReady: true,
        operatorReady: true,
        replicas: { desired: 3, ready: 2 },
      },
      {
        phase: 'Degraded',
        reason: 'ReplicasNotReady',
        message: '2/3 replicas ready',
      },
    ],
    [
      'operator says ready but a replica is missing',
      { operatorReady: true, replicas: { desired: 6, ready: 5 } },
      {
        phase: 'Degraded',
        reason: 'ReplicasNotReady',
        message: '5/6 replicas ready',
      },
    ],
    [
      'operator says ready, spec change not yet observed',
      { operatorReady: true, generation: 2, observedGeneration: 1 },
      {
        phase: 'Updating',
        reason: 'GenerationNotObserved',
        message: 'The operator has observed generation 1 of 2',
      },
    ],
    [
      'fewer ready on a new instance, operator words',
      {
        operatorReady: false,
        readyMessage: '1/3 Pods ready',
        replicas: { desired: 3, ready: 1 },
      },
      {
        phase: 'Provisioning',
        reason: 'ReplicasNotReady',
        message: '1/3 Pods ready',
      },
    ],
    [
      'operator says ready',
      { operatorReady: true, readyMessage: 'Running' },
      { phase: 'Ready', reason: 'AllReplicasReady', message: 'Running' },
    ],
    [
      'no verdict, all replicas ready',
      { replicas: { desired: 1, ready: 1 } },
      {
        phase: 'Ready',
        reason: 'AllReplicasReady',
        message: '1/1 replicas ready',
      },
    ],
    [
      'no verdict, desired zero',
      { replicas: { desired: 0, ready: 0 } },
      {
        phase: 'Unknown',
        reason: 'UnrecognizedStatus',
        message: 'The operator status does not allow a verdict',
      },
    ],
    [
      'operator says not ready, new',
      { operatorReady: false, readyMessage: 'Not ready' },
      { phase: 'Provisioning', reason: 'NotReady', message: 'Not ready' },
    ],
    [
      'operator says not ready, once ready',
      { operatorReady: false, onceReady: true },
      { phase: 'Degraded', reason: 'NotReady' },
    ],
    [
      'operator says not ready for a reason of its own, once ready: Degraded, its reason and words kept',
      { operatorReady: false, onceReady: true, notReadyReason: 'SomethingNew', readyMessage: 'a new kind of trouble' },
      { phase: 'Degraded', reason: 'SomethingNew', message: 'a new kind of trouble' },
    ],
    [
      'status without a usable fact',
      {},
      {
        phase: 'Unknown',
        reason: 'UnrecognizedStatus',
        message: 'The operator status does not allow a verdict',
      },
    ],
    [
      'adapter-given indeterminate reason',
      {
        indeterminate: {
          reason: 'StatefulSetNotFound',
          message: 'StatefulSet x not found',
        },
      },
      {
        phase: 'Unknown',
        reason: 'StatefulSetNotFound',
        message: 'StatefulSet x not found',
      },
    ],
  ])('%s', (_name, over, expected) => {
    expect(decidePhase(facts(over))).toEqual(expected);
  });

  // Exact verdicts (toStrictEqual: an absent message is absent, not undefined or "").
  it.each<[string, Partial<PhaseFacts>, ReturnType<typeof decidePhase>]>([
    [
      'a generation with no observedGeneration (an operator that reports none) is no rollout',
      { operatorReady: true, generation: 2 },
      { phase: 'Ready', reason: 'AllReplicasReady' },
    ],
    [
      'behind on its generation, never ready, nothing else in progress',
      { generation: 3, observedGeneration: 2 },
      {
        phase: 'Provisioning',
        reason: 'GenerationNotObserved',
        message: 'The operator has observed generation 2 of 3',
      },
    ],
    [
      'red on a new cluster that reports no progress',
      { health: 'red' },
      {
        phase: 'Failed',
        reason: 'HealthRed',
        message: 'Cluster health is red',
      },
    ],
    [
      'red on a new cluster still allocating its shards',
      { health: 'red', progress: { reason: 'Allocating' } },
      { phase: 'Provisioning', reason: 'Allocating' },
    ],
    [
      'unknown health on a new cluster that reports no progress',
      { health: 'unknown' },
      {
        phase: 'Unknown',
        reason: 'HealthUnknown',
        message: 'Cluster health is unknown',
      },
    ],
    [
      'unknown health of a once-ready cluster while a change rolls out',
      {
        health: 'unknown',
        onceReady: true,
        progress: { reason: 'Upgrading', change: true },
      },
      {
        phase: 'Unknown',
        reason: 'HealthUnknown',
        message: 'Cluster health is unknown',
      },
    ],
    [
      'scaled to zero after being ready is not a failure',
      {
        onceReady: true,
        operatorReady: true,
        replicas: { desired: 0, ready: 0 },
      },
      { phase: 'Ready', reason: 'AllReplicasReady' },
    ],
    [
      "every replica ready, but not by the operator's own verdict",
      {
        operatorReady: false,
        readyMessage: 'Waiting for the primary',
        replicas: { desired: 3, ready: 3 },
      },
      {
        phase: 'Provisioning',
        reason: 'NotReady',
        message: 'Waiting for the primary',
      },
    ],
    [
      'an empty operator message is left out',
      { error: { reason: 'OperatorError', message: '' } },
      { phase: 'Failed', reason: 'OperatorError' },
    ],
  ])('%s (exactly)', (_name, over, expected) => {
    expect(decidePhase(facts(over))).toStrictEqual(expected);
  });

  it('has rules with unique names', () => {
    const names = PHASE_RULES.map(r => r.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

const signal = fc.record({
  reason: fc.constantFrom('A', 'B'),
  message: fc.option(fc.string(), { nil: undefined }),
});
const arbitraryFacts: fc.Arbitrary<PhaseFacts> = fc.record(
  {
    deleting: fc.boolean(),
    hasStatus: fc.boolean(),
    onceReady: fc.boolean(),
    operatorReady: fc.option(fc.boolean(), { nil: undefined }),
    readyMessage: fc.option(fc.string(), { nil: undefined }),
    error: fc.option(signal, { nil: undefined }),
    progress: fc.option(
      fc.record({
        reason: fc.constant('P'),
        change: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { nil: undefined },
    ),
    unhealthy: fc.option(signal, { nil: undefined }),
    notServing: fc.option(signal, { nil: undefined }),
    health: fc.option(
      fc.constantFrom<HealthColour>('green', 'yellow', 'red', 'unknown'),
      { nil: undefined },
    ),
    replicas: fc.option(
      fc.record({
        desired: fc.option(fc.nat(5), { nil: undefined }),
        ready: fc.option(fc.nat(5), { nil: undefined }),
      }),
      { nil: undefined },
    ),
    paused: fc.option(signal, { nil: undefined }),
    generation: fc.option(fc.nat(5), { nil: undefined }),
    observedGeneration: fc.option(fc.nat(5), { nil: undefined }),
  },
  { requiredKeys: ['deleting', 'hasStatus', 'onceReady'] },
);

describe('phase table properties', () => {
  it('Deleting wins whenever the object is being deleted', () => {
    fc.assert(
      fc.property(
        arbitraryFacts,
        f => decidePhase({ ...f, deleting: true }).phase === 'Deleting',
      ),
    );
  });

  it('no status is Pending (never Ready) unless deleting or paused by its owner', () => {
    fc.assert(
      fc.property(
        arbitraryFacts,
        f =>
          decidePhase({ ...f, deleting: false, hasStatus: false, paused: undefined })
            .phase === 'Pending',
      ),
    );
  });

  it('paused by its owner is Paused even before the operator wrote any status', () => {
    fc.assert(
      fc.property(
        arbitraryFacts,
        signal,
        (f, paused) =>
          decidePhase({ ...f, deleting: false, hasStatus: false, paused }).phase ===
          'Paused',
      ),
    );
  });

  it('an operator error is always Failed', () => {
    fc.assert(
      fc.property(
        arbitraryFacts,
        signal,
        (f, error) =>
          decidePhase({
            ...f,
            deleting: false,
            hasStatus: true,
            paused: undefined,
            error,
          }).phase === 'Failed',
      ),
    );
  });

  it('Ready only with no error, no unhealthy signal, no red/yellow and no missing replicas', () => {
    fc.assert(
      fc.property(arbitraryFacts, f => {
        if (decidePhase(f).phase !== 'Ready') return true;
        const r = f.replicas;
        const missing =
          r?.desired !== undefined &&
          r?.ready !== undefined &&
          r.ready < r.desired;
        return (
          !f.error &&
          !f.paused &&
          !f.unhealthy &&
          f.health !== 'red' &&
          f.health !== 'yellow' &&
          !missing &&
          f.operatorReady !== false
        );
      }),
    );
  });

  it('paused (hibernated, reconciliation off) is Paused whatever the frozen status says, unless deleting or without status', () => {
    fc.assert(
      fc.property(
        arbitraryFacts,
        signal,
        (f, paused) =>
          decidePhase({ ...f, deleting: false, hasStatus: true, paused })
            .phase === 'Paused',
      ),
    );
  });

  it('always yields a PascalCase reason and the rule that matched is the first that holds', () => {
    fc.assert(
      fc.property(arbitraryFacts, f => {
        const verdict = decidePhase(f);
        const first = PHASE_RULES.find(r => r.when(f));
        return (
          /^[A-Z][A-Za-z0-9]*$/.test(verdict.reason) &&
          (first === undefined || matchRule(f) === first)
        );
      }),
    );
  });
});
