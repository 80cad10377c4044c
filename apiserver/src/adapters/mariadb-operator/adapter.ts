import { pausedOf } from '../../writes/pauseSwitch';
import { mariadbPrimary, pendingSwitchover, withFailover } from './primary';
import type {
  DatabaseTopology,
  Endpoint,
} from '@internal/plugin-databases-common';
import type { PhaseFacts, Signal } from '../../status/facts';
import { toInstance } from '../../status/toInstance';
import { adapterBasics } from '../shared/adapterBasics';
import { claimStorageOf, storageOf } from '../shared/storageOf';
import type { KubeObject, OperatorAdapter, RelatedLookup, RelatedRef, SourceKind } from '../types';
import { mariadbPause, mariadbWriteSide } from './write';
import {
  asNumber,
  asRecord,
  asString,
  errorReason,
  findCondition,
  hasAnyStatus,
  nameOf,
  namespaceOf,
  quantity,
  resourcesOf,
  serviceEndpoint,
  versionFromImage,
  versionFromTag,
  deletionProtectionOf,
  pascalCase,
} from '../shared/read';
import { mariadbBackups } from './backup';
import { mariadbRestore } from './restore';
import { restoringFacts } from './restoring';
import { bootstrapRestoreRef, failedBootstrapRestore, MARIADB_RESTORE } from './bootstrapRestore';
import { mariadbFindings } from './findings';
import { mariadbMembers } from './members';
import { mariadbTopologyOf } from './topology';
import { withMembers } from '../shared/members';

const MARIADB: SourceKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'mariadbs',
  kind: 'MariaDB',
  topologies: ['standalone', 'replication', 'galera'],
};

/** Ready=False reasons that mean the operator failed (api/v1alpha1 condition reasons). */
const ERROR_REASONS = new Set([
  'Failed',
  'InitError',
  'ScaleOutError',
  'ReplicaRecoverError',
  'ArchiveBinlogsError',
  'ReplayBinlogsError',
]);
/** Ready=False reasons for work under way that is by nature a change to a running instance. */
const CHANGE_REASONS = new Set([
  'Updating',
  'PendingUpdate',
  'ResizingStorage',
  'WaitStorageResize',
  'SwitchPrimary',
  'ScalingOut',
  'ReplicaRecovering',
]);
/** Ready=False reasons for work under way during creation. */
const PROVISIONING_REASONS = new Set([
  'Initializing',
  'RestorePhysicalBackup',
  'GaleraInitializing',
]);
/** Ready=False reasons where the instance serves, but in a restricted mode an admin chose. */
const MAINTENANCE_REASONS = new Set(['Maintenance', 'Cordoned']);

/** `spec.image` is `<image>:<tag>`; releases before v0.0.2x used `{repository, tag}`. */
function specVersion(spec: Record<string, any>): string | undefined {
  const image = spec.image;
  return typeof image === 'string'
    ? versionFromImage(image)
    : versionFromTag(asRecord(image)?.tag);
}


/** Replication members whose IO and SQL threads run, plus the primary. */
function replicationHealth(
  status: Record<string, any>,
): { ready: number; broken?: Signal } | undefined {
  const replication = asRecord(status.replication);
  if (!replication) return undefined;
  const roles = asRecord(replication.roles) ?? {};
  const primaries = Object.values(roles).filter(r => r === 'Primary').length;
  let ready = primaries;
  let broken: Signal | undefined;
  for (const [pod, raw] of Object.entries(
    asRecord(replication.replicas) ?? {},
  )) {
    const r = asRecord(raw) ?? {};
    const running = r.slaveIORunning === true && r.slaveSQLRunning === true;
    if (running) ready += 1;
    const error = asString(r.lastIOError) ?? asString(r.lastSQLError);
    if (!running || error)
      broken ??= {
        reason: 'ReplicationBroken',
        message: error ?? `Replication threads are not running on ${pod}`,
      };
  }
  return { ready, broken };
}

/** Facts from a MariaDB status (conditions Ready/GaleraReady, galeraRecovery, replication). */
export function mariadbFacts(source: KubeObject): PhaseFacts {
  const spec = asRecord(source.spec) ?? {};
  const status = asRecord(source.status) ?? {};
  const ready = findCondition(status, 'Ready');
  const galeraReady = findCondition(status, 'GaleraReady');
  const recovering = asRecord(status.galeraRecovery) !== undefined;
  const replication = replicationHealth(status);
  const onceReady =
    recovering ||
    findCondition(status, 'GaleraConfigured')?.status === 'True' ||
    findCondition(status, 'ReplicationConfigured')?.status === 'True' ||
    (replication !== undefined && replication.ready > 0);
  const desired = asNumber(spec.replicas) ?? 1;
  const readyCount = asNumber(status.replicas) ?? replication?.ready;

  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    hasStatus: hasAnyStatus(source),
    onceReady,
    replicas: { desired, ready: readyCount },
  };
  if (readyCount === undefined) facts.replicas = { desired };

  if (ready?.status === 'True') {
    facts.operatorReady = true;
    facts.readyMessage = ready.message;
  } else if (ready?.status === 'False') {
    const reason = ready.reason ?? '';
    // SwitchPrimary: a switchover or failover, in the shared word for it
    const signal = { reason: reason === 'SwitchPrimary' ? 'Switchover' : reason || 'NotReady', message: ready.message };
    if (ERROR_REASONS.has(reason))
      facts.error = { reason: errorReason(reason), message: ready.message };
    else if (CHANGE_REASONS.has(reason))
      facts.progress = { ...signal, change: true };
    else if (PROVISIONING_REASONS.has(reason)) facts.progress = signal;
    else if (MAINTENANCE_REASONS.has(reason)) facts.unhealthy = signal;
    // spec.suspend: reconciliation stopped on purpose (the shared phase Paused).
    else if (reason === 'Suspended') facts.paused = signal;
    else {
      // a reason this adapter does not know: not Ready, decided from the members and the
      // other conditions, with the operator's reason and words as they are
      facts.operatorReady = false;
      facts.readyMessage = ready.message;
      if (reason) facts.notReadyReason = pascalCase(reason);
    }
  }
  restoringFacts(source, facts);
  // a switchover asked for (spec.replication.primary.podIndex) that the operator has not begun
  // or not reported done: the primary is moving, whatever Ready still says
  const switchingTo = pendingSwitchover(source);
  if (switchingTo && !facts.error && facts.progress?.reason !== 'Switchover')
    facts.progress = { reason: 'Switchover', message: `Switching primary to '${switchingTo}'`, change: true };
  // spec.suspend set and the operator not yet saying so: the owner's word already holds
  if (spec.suspend === true && !facts.paused)
    facts.paused = {
      reason: 'Suspended',
      message: 'spec.suspend is true: the operator does not reconcile this MariaDB',
    };
  if (galeraReady?.status === 'False' && !facts.error) {
    // Recovery after a full outage (galeraRecovery present) is the documented degraded state;
    // without it the cluster is still forming.
    if (recovering || onceReady)
      facts.unhealthy = {
        reason: 'GaleraRecovering',
        message: galeraReady.message,
      };
    else
      facts.progress ??= {
        reason: 'GaleraInitializing',
        message: galeraReady.message,
      };
  }
  // Replicas that are not replicating yet are expected while a change (a scale-out, an upgrade)
  // rolls out; only outside one do they make the instance Degraded.
  if (
    replication?.broken &&
    onceReady &&
    !facts.unhealthy &&
    !facts.progress?.change
  )
    facts.unhealthy = replication.broken;
  return facts;
}

/** A failed bootstrap restore is Failed, whatever Ready says after it (see failedBootstrapRestore). */
function withBootstrapRestore(facts: PhaseFacts, source: KubeObject, related: RelatedLookup): PhaseFacts {
  const failed = facts.deleting ? undefined : failedBootstrapRestore(source, related);
  if (!failed) return facts;
  const { progress: _restoring, ...rest } = facts;
  return { ...rest, error: failed };
}

function endpoints(source: KubeObject, topology: DatabaseTopology): Endpoint[] {
  const name = nameOf(source);
  const ns = namespaceOf(source);
  const port = asNumber(asRecord(source.spec)?.port) ?? 3306;
  if (topology === 'standalone')
    return [serviceEndpoint('primary', name, ns, port)];
  // HA: writes go to the current primary, reads may use the secondaries.
  return [
    serviceEndpoint('primary', `${name}-primary`, ns, port),
    serviceEndpoint('readonly', `${name}-secondary`, ns, port),
  ];
}

function credentials(source: KubeObject): { name: string } | undefined {
  const spec = asRecord(source.spec) ?? {};
  const named = asString(asRecord(spec.rootPasswordSecretKeyRef)?.name);
  if (named) return { name: named };
  // The operator generates `<name>-root` unless the root password is explicitly empty.
  return spec.rootEmptyPassword === true
    ? undefined
    : { name: `${nameOf(source)}-root` };
}

function specStorage(spec: Record<string, any>) {
  const storage = asRecord(spec.storage) ?? {};
  // Old releases had the claim template at spec.volumeClaimTemplate.
  const template =
    asRecord(storage.volumeClaimTemplate) ??
    asRecord(spec.volumeClaimTemplate) ??
    {};
  const claim = claimStorageOf(template);
  return storageOf(
    quantity(storage.size) ?? claim?.size,
    asString(storage.storageClassName) ?? claim?.storageClassName,
  );
}

/** mariadb-operator: MariaDB (standalone, replication, Galera). OperatorHub capability level 4 (Deep Insights). */
export const mariadbOperatorAdapter: OperatorAdapter = withMembers({
  // Community >= 10.6 is supported; 11.8 is the operator's default image line.
  ...adapterBasics(mariadbWriteSide(MARIADB), [MARIADB]),
  capabilityLevel: 4,
  // The StatefulSet selector (pkg/builder/labels), copied onto its pods and volume claims.
  memberSelectors: source => [
    {
      'app.kubernetes.io/name': 'mariadb',
      'app.kubernetes.io/instance': nameOf(source),
    },
  ],
  findings: mariadbFindings,
  backups: mariadbBackups,
  relatedTypes: [MARIADB_RESTORE],
  relatedRefs: source => [bootstrapRestoreRef(source)].filter((r): r is RelatedRef => r !== undefined),
  project(source, kind, related) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const topology = mariadbTopologyOf(spec);
    const version = specVersion(spec);
    return toInstance({
      operator: 'mariadb-operator',
      engine: 'mariadb',
      kind,
      source,
      spec: {
        version,
        topology,
        replicas: asNumber(spec.replicas) ?? 1,
        storage: specStorage(spec),
        resources: resourcesOf(spec.resources),
        deletionProtection: deletionProtectionOf(source),
        paused: pausedOf(mariadbPause, source),
        primary: mariadbPrimary.read(source),
        restoreFrom: mariadbRestore.read(source),
      },
      facts: withFailover(withBootstrapRestore(mariadbFacts(source), source, related), source, related, mariadbMembers.pods),
      // defaultVersion is what the operator runs when the image tag names no version.
      version: version ?? asString(status.defaultVersion),
      endpoints: endpoints(source, topology),
      credentialsSecretRef: credentials(source),
      upstreamConditions: [
        findCondition(status, 'Ready'),
        findCondition(status, 'GaleraReady'),
      ],
    });
  },
}, mariadbMembers);
