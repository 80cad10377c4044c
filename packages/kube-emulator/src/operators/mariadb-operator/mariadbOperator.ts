import type { StoredObject } from '../../store/types';
import { mariadbDemo } from './demo';
import { nextConditions, withCondition } from '../conditions';
import { randomPassword, revisionHash } from '../dependentObjects';
import { count, imageTag, secretsByName } from '../specHelpers';
import type {
  CustomKind,
  DesiredState,
  EmulatedOperator,
  Observation,
} from '../types';
import { switchoverRound } from '../switchoverRounds';
import { mariadbBackups } from './backups';
import { withRestore } from './restore';

import { MARIADB_KIND } from './mariadbKind';

export { MARIADB_KIND };

/** The operator's default image when spec.image is empty (docs/docker.md). */
export const MARIADB_DEFAULT_IMAGE =
  'docker-registry1.mariadb.com/library/mariadb:11.8.8';

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};
const isGalera = (cr: StoredObject) => spec(cr).galera?.enabled === true;
const isReplication = (cr: StoredObject) =>
  spec(cr).replication?.enabled === true;

function desired(cr: StoredObject): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const port = count(s.port, 3306);
  const image = s.image || MARIADB_DEFAULT_IMAGE;
  const ha = isGalera(cr) || isReplication(cr);
  const labels = {
    'app.kubernetes.io/name': 'mariadb',
    'app.kubernetes.io/instance': name,
  };
  const rootRef = {
    name: s.rootPasswordSecretKeyRef?.name || `${name}-root`,
    key: s.rootPasswordSecretKeyRef?.key || 'password',
  };
  const refs = [rootRef];
  if (s.username) {
    refs.push({
      name: s.passwordSecretKeyRef?.name || `${name}-password`,
      key: s.passwordSecretKeyRef?.key || 'password',
    });
  }
  const galeraPorts = isGalera(cr)
    ? [
        { name: 'cluster', port: 4444 },
        { name: 'ist', port: 4567 },
        { name: 'sst', port: 4568 },
      ]
    : [];
  return {
    version: imageTag(image),
    statefulSets: [
      {
        name,
        replicas: count(s.replicas, 1),
        revision: revisionHash({
          image,
          resources: s.resources,
          storage: s.storage,
          port,
        }),
        image,
        serviceName: `${name}-internal`,
        labels,
        container: 'mariadb',
        claim: {
          name: pod => `storage-${pod}`,
          size: s.storage?.size,
          storageClassName: s.storage?.storageClassName,
        },
      },
    ],
    services: [
      { name, ports: [{ name: 'mariadb', port }], selector: labels },
      ...(ha
        ? [
            {
              name: `${name}-primary`,
              ports: [{ name: 'mariadb', port }],
              selector: {
                ...labels,
                'statefulset.kubernetes.io/pod-name': `${name}-0`,
              },
            },
            {
              name: `${name}-secondary`,
              ports: [{ name: 'mariadb', port }],
              selector: labels,
            },
          ]
        : []),
      {
        name: `${name}-internal`,
        ports: [{ name: 'mariadb', port }, ...galeraPorts],
        selector: labels,
        headless: true,
      },
    ],
    secrets: [...secretsByName(refs)].map(([secretName, keys]) => ({
      name: secretName,
      labels,
      data: () => Object.fromEntries(keys.map(k => [k, randomPassword()])),
    })),
  };
}

const SUSPENDED = {
  type: 'Ready',
  status: 'False' as const,
  reason: 'Suspended',
  message: 'Suspended',
};

function readyCondition(cr: StoredObject, obs: Observation) {
  switch (obs.stage) {
    case 'ready':
      return {
        type: 'Ready',
        status: 'True' as const,
        reason: 'StatefulSetReady',
        message: 'Running',
      };
    case 'updating':
      return {
        type: 'Ready',
        status: 'False' as const,
        reason: 'Updating',
        message: 'Updating',
      };
    case 'degraded':
      return isGalera(cr)
        ? {
            type: 'Ready',
            status: 'False' as const,
            reason: 'GaleraNotReady',
            message: 'Galera not ready',
          }
        : {
            type: 'Ready',
            status: 'False' as const,
            reason: 'StatefulSetNotReady',
            message: 'Not ready',
          };
    case 'failed':
      return {
        type: 'Ready',
        status: 'False' as const,
        reason: 'Failed',
        message: obs.message ?? 'Error reconciling StatefulSet',
      };
    default:
      return {
        type: 'Ready',
        status: 'False' as const,
        reason: 'StatefulSetNotReady',
        message: 'Not ready',
      };
  }
}

/** The primary's pod index as the status last said (the first pod until a switchover). */
const currentIndexOf = (previous: Record<string, any>): number =>
  typeof previous.currentPrimaryPodIndex === 'number' ? previous.currentPrimaryPodIndex : 0;

/**
 * A switchover the owner asked for (spec.replication.primary.podIndex, "the user may change this
 * field to perform a manual switchover"), as the operator carries it out: one round switching
 * (Ready False, reason SwitchPrimary), the next with the new primary. An index with no ready
 * pod is no switchover (the operator would wait).
 */
function switchover(
  cr: StoredObject,
  previous: Record<string, any>,
  obs: Observation,
): { to: number; done: boolean } | undefined {
  const to = spec(cr).replication?.primary?.podIndex;
  const asked = typeof to === 'number' && previous.currentPrimary !== undefined && to !== currentIndexOf(previous) && to < obs.readyReplicas;
  return switchoverRound((obs.memo ??= {}), asked ? (to as number) : undefined);
}

/** Galera recovery as docs/galera.md shows it: every node's grastate and the bootstrap choice. */
function galeraRecovery(cr: StoredObject, obs: Observation, previous: any) {
  if (previous?.galeraRecovery) return previous.galeraRecovery;
  const pods = Array.from(
    { length: obs.desiredReplicas },
    (_, i) => `${cr.metadata.name}-${i}`,
  );
  const uuid = cr.metadata.uid;
  return {
    state: Object.fromEntries(
      pods.map(p => [
        p,
        { safeToBootstrap: false, seqno: -1, uuid, version: '2.1' },
      ]),
    ),
    recovered: Object.fromEntries(pods.map(p => [p, { seqno: 3, uuid }])),
    bootstrap: { pod: pods[pods.length - 1], time: obs.now },
  };
}

function status(
  cr: StoredObject,
  _kind: CustomKind,
  obs: Observation,
): Record<string, unknown> | undefined {
  const previous = (cr.status as Record<string, any>) ?? {};
  // mariadb-operator shows nothing special while an object is deleted.
  if (obs.stage === 'deleting')
    return cr.status as Record<string, unknown> | undefined;
  const prevConditions: any[] = Array.isArray(previous.conditions)
    ? previous.conditions
    : [];
  // spec.suspend: the operator stops at once and says only this (ConditionReasonSuspended)
  if (obs.paused)
    return {
      ...previous,
      conditions: withCondition(prevConditions, SUSPENDED, obs.now),
    };
  const switching = isReplication(cr) && obs.stage === 'ready' ? switchover(cr, previous, obs) : undefined;
  const wanted = [
    switching && !switching.done
      ? { type: 'Ready', status: 'False' as const, reason: 'SwitchPrimary', message: `Switching primary to '${cr.metadata.name}-${switching.to}'` }
      : readyCondition(cr, obs),
  ];
  // pkg/condition/primary_switched.go: False while switching, True once done, kept after
  const switched = prevConditions.find(c => c.type === 'PrimarySwitched');
  if (switching)
    wanted.push(
      switching.done
        ? { type: 'PrimarySwitched', status: 'True', reason: 'SwitchPrimary', message: 'Switchover complete' }
        : { type: 'PrimarySwitched', status: 'False', reason: 'SwitchPrimary', message: `Switching primary to '${cr.metadata.name}-${switching.to}'` },
    );
  else if (switched) wanted.push(switched);
  if (isGalera(cr)) {
    wanted.push(
      obs.stage === 'ready' || obs.stage === 'updating'
        ? {
            type: 'GaleraReady',
            status: 'True',
            reason: 'GaleraReady',
            message: 'Galera ready',
          }
        : {
            type: 'GaleraReady',
            status: 'False',
            reason: 'GaleraNotReady',
            message: 'Galera not ready',
          },
    );
  }
  // the operator configures replication once, when the StatefulSet is first ready (every pod);
  // before that there is neither the condition nor a replication status
  const replicationConfigured =
    isReplication(cr) &&
    (prevConditions.some(c => c.type === 'ReplicationConfigured') ||
      (obs.readyReplicas > 0 && obs.readyReplicas >= obs.desiredReplicas));
  if (replicationConfigured) {
    wanted.push({
      type: 'ReplicationConfigured',
      status: 'True',
      reason: 'ReplicationConfigured',
      message: 'Replication configured',
    });
  }
  if (obs.stage === 'updating') {
    wanted.push({
      type: 'Updated',
      status: 'False',
      reason: 'Updating',
      message: 'Updating',
    });
  } else if (prevConditions.some(c => c.type === 'Updated')) {
    wanted.push({
      type: 'Updated',
      status: 'True',
      reason: 'Updated',
      message: 'Updated',
    });
  }
  const out: Record<string, unknown> = {
    conditions: nextConditions(prevConditions, wanted, obs.now),
    replicas: obs.readyReplicas,
  };
  const ha = isGalera(cr) || isReplication(cr);
  const primaryIndex = switching?.done ? switching.to : currentIndexOf(previous);
  // a failover done: the lost primary's pod comes back as a replica; until then the operator has
  // seen it lost (its next round moves podIndex: adjustSpec)
  if (switching?.done && obs.memo?.lostPrimary === `${cr.metadata.name}-${currentIndexOf(previous)}`) {
    delete obs.memo.lostPrimary;
    delete obs.memo.lostSeen;
  } else if (typeof obs.memo?.lostPrimary === 'string') obs.memo.lostSeen = obs.memo.lostPrimary;
  if (ha && (obs.readyReplicas > 0 || previous.currentPrimary)) {
    out.currentPrimary = `${cr.metadata.name}-${primaryIndex}`;
    out.currentPrimaryPodIndex = primaryIndex;
  }
  if (isGalera(cr) && obs.stage === 'degraded')
    out.galeraRecovery = galeraRecovery(cr, obs, previous);
  if (replicationConfigured && obs.readyReplicas > 0) {
    const pods = Array.from(
      { length: obs.sets[0]?.pods ?? 0 },
      (_, i) => `${cr.metadata.name}-${i}`,
    );
    out.replication = {
      roles: Object.fromEntries(
        pods.map((p, i) => [p, i === primaryIndex ? 'Primary' : 'Replica']),
      ),
      replicas: Object.fromEntries(
        pods.flatMap((p, i) => (i === primaryIndex ? [] : [[p, i] as const])).map(([p, i]) => {
          // pods are ready in order
          const running = i < obs.readyReplicas;
          return [
            p,
            {
              slaveIORunning: running,
              slaveSQLRunning: running,
              secondsBehindMaster: 0,
              lastIOErrno: 0,
              lastSQLErrno: 0,
            },
          ];
        }),
      ),
    };
  }
  return out;
}

/** Emulated mariadb-operator: StatefulSet `<n>`, Services `<n>`(`-primary`, `-secondary`), `<n>-internal`, root Secret. */
export const mariadbOperator: EmulatedOperator = {
  demo: mariadbDemo,
  id: 'mariadb-operator',
  kinds: [MARIADB_KIND],
  desired: cr => desired(cr),
  primaryPod: cr => {
    const current = (cr.status as Record<string, any> | undefined)?.currentPrimary;
    return isReplication(cr) && typeof current === 'string' ? current : undefined;
  },
  // spec.replication.primary.autoFailover (default true): "the operator should automatically
  // update PodIndex to perform an automatic primary failover" (the CRD)
  adjustSpec: (cr, memo) => {
    const primary = spec(cr).replication?.primary ?? {};
    const current = currentIndexOf((cr.status as Record<string, any>) ?? {});
    if (typeof memo.lostPrimary !== 'string' || memo.lostSeen !== memo.lostPrimary || primary.autoFailover === false) return undefined;
    if (memo.lostPrimary !== `${cr.metadata.name}-${current}` || (primary.podIndex ?? current) !== current) return undefined;
    const next = current === 0 ? 1 : 0;
    return s => {
      s.replication = { ...s.replication, primary: { ...s.replication?.primary, podIndex: next } };
    };
  },
  paused: cr => spec(cr).suspend === true,
  status: (cr, kind, obs) => withRestore(cr, obs, status(cr, kind, obs)),
  backups: mariadbBackups,
};
