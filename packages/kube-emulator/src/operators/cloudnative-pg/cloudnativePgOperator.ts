import { withRecovery } from './recovery';
import type { StoredObject } from '../../store/types';
import { cloudnativePgDemo } from './demo';
import { nextConditions, withCondition } from '../conditions';
import { randomPassword, revisionHash } from '../dependentObjects';
import { count, imageTag } from '../specHelpers';
import type {
  CustomKind,
  DesiredState,
  EmulatedOperator,
  Observation,
} from '../types';
import { switchoverRound } from '../switchoverRounds';
import { cnpgBackups } from './backups';

/** Cluster (postgresql.cnpg.io/v1). */
export const CNPG_CLUSTER_KIND: CustomKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'clusters',
  kind: 'Cluster',
};

/** The image the operator runs when imageName and imageCatalogRef are empty (pkg/versions/versions.go, v1.30.0). */
export const CNPG_DEFAULT_IMAGE =
  'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';

/** The phase sentences this emulation writes (api/v1/cluster_types.go at v1.30.0). */
export const CNPG_PHASES = {
  healthy: 'Cluster in healthy state',
  firstPrimary: 'Setting up primary',
  creatingReplica: 'Creating a new replica',
  upgrade: 'Upgrading cluster',
  failOver: 'Failing over',
  switchover: 'Switchover in progress',
  unrecoverable: 'Cluster is unrecoverable and needs manual intervention',
} as const;

const PORT = 5432;

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};

const hibernated = (cr: StoredObject) =>
  cr.metadata.annotations?.['cnpg.io/hibernation'] === 'on';

/** The PostgreSQL version an image tag names (`18.4-system-trixie` → `18.4`). */
const versionOf = (image: string) =>
  /^(\d+(?:\.\d+)*)/.exec(imageTag(image) ?? '')?.[1];

const imageOf = (cr: StoredObject): string =>
  spec(cr).imageName || CNPG_DEFAULT_IMAGE;

/** Instance pods are `<name>-<serial>`, serials from 1; the first is the primary. */
const instanceNames = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}-${i + 1}`);

/** The primary as the status last said: the first instance until a switchover moves it. */
const primaryOf = (cr: StoredObject): string =>
  (cr.status as Record<string, any> | undefined)?.currentPrimary ?? `${cr.metadata.name}-1`;

/**
 * The operator's failover once the primary is lost (failPrimary), over three rounds as its
 * phaseReasons tell it (replicas.go): "Initiating a failover from <lost>" with targetPrimary
 * "pending", "Failing over from <lost> to <next>", then <next> is the primary (`done`). The lost
 * pod comes back as a replica.
 */
function failoverRound(
  memo: Record<string, unknown>,
  lost: string,
  names: string[],
): { target: string; reason?: string; done?: string } {
  const to = names.find(n => n !== lost);
  if (memo.failover === undefined || !to) {
    memo.failover = 'pending';
    return { target: 'pending', reason: `Initiating a failover from ${lost}` };
  }
  if (memo.failover === 'pending') {
    memo.failover = to;
    return { target: to, reason: `Failing over from ${lost} to ${to}` };
  }
  const done = String(memo.failover);
  delete memo.failover;
  delete memo.lostPrimary;
  return { target: done, done };
}

/**
 * A switchover a client asked for as `kubectl cnpg promote` does (status.targetPrimary set to a
 * ready instance other than the current primary), as the operator carries it out: one round
 * in phase "Switchover in progress", the next with the new primary. The failover marker and
 * instances that are not there are no switchover.
 */
function switchover(
  previous: Record<string, any>,
  names: string[],
  ready: number,
  memo: Record<string, unknown>,
): { to: string; done: boolean } | undefined {
  const to = previous.targetPrimary;
  const current = previous.currentPrimary;
  const asked = typeof to === 'string' && current && to !== current && names.slice(0, ready).includes(to);
  return switchoverRound(memo, asked ? (to as string) : undefined);
}

function desired(cr: StoredObject, memo: Readonly<Record<string, unknown>> = {}): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const ns = cr.metadata.namespace;
  const image = imageOf(cr);
  const labels = { 'cnpg.io/cluster': name };
  const service = (suffix: string, role?: string) => ({
    name: `${name}-${suffix}`,
    selector: role ? { ...labels, 'cnpg.io/instanceRole': role } : labels,
    labels,
    ports: [{ name: 'postgres', port: PORT }],
  });
  const database = s.bootstrap?.initdb?.database ?? 'app';
  const owner = s.bootstrap?.initdb?.owner ?? database;
  return {
    version: versionOf(image),
    // The operator creates Pods and PVCs itself, no StatefulSet: the emulation only counts them.
    statefulSets: [
      {
        name,
        // declarative hibernation: every instance pod goes, its PVC stays
        replicas: hibernated(cr) ? 0 : count(s.instances, 1),
        revision: revisionHash({
          image,
          resources: s.resources,
          storage: s.storage,
        }),
        image,
        serviceName: `${name}-rw`,
        labels,
        container: 'postgres',
        podsOnly: true,
        // pkg/specs/pods.go; the primary is status.currentPrimary (the first instance until a
        // switchover), relabelled in the round that completes a switchover, before the status says so
        podLabels: pod => {
          const target = (cr.status as any)?.targetPrimary;
          const promoting = [memo.switchingTo, memo.failover].find(to => typeof to === 'string' && to !== 'pending' && to === target);
          const primary = typeof promoting === 'string' ? promoting : primaryOf(cr);
          const role = pod === primary ? 'primary' : 'replica';
          return { 'cnpg.io/instanceName': pod, 'cnpg.io/podRole': 'instance', 'cnpg.io/instanceRole': role, role };
        },
        // CloudNativePG names each instance's PVC after its pod.
        claim: {
          name: pod => pod,
          size: s.storage?.size,
          storageClassName: s.storage?.storageClass,
        },
      },
    ],
    services: [
      service('rw', 'primary'),
      service('ro', 'replica'),
      service('r'),
    ],
    secrets: [
      {
        // pkg/specs/secrets.go: the application user's basic-auth Secret.
        name: s.bootstrap?.initdb?.secret?.name ?? `${name}-app`,
        labels,
        data: () => {
          const password = randomPassword();
          const host = `${name}-rw`;
          return {
            username: owner,
            user: owner,
            password,
            dbname: database,
            host,
            port: String(PORT),
            pgpass: `${host}:${PORT}:${database}:${owner}:${password}\n`,
            uri: `postgresql://${owner}:${password}@${host}.${ns}:${PORT}/${database}`,
            'jdbc-uri': `jdbc:postgresql://${host}.${ns}:${PORT}/${database}?password=${password}&user=${owner}`,
          };
        },
      },
    ],
  };
}

/** The sentence and its reason for this round, as the real operator writes them. */
function phaseOf(
  name: string,
  obs: Observation,
): { phase: string; phaseReason?: string } {
  const ready = obs.readyReplicas;
  switch (obs.stage) {
    case 'ready':
      return { phase: CNPG_PHASES.healthy };
    case 'failed':
      return {
        phase: CNPG_PHASES.unrecoverable,
        phaseReason:
          obs.message ??
          'No pods are active, the cluster needs manual intervention',
      };
    case 'degraded':
      return {
        phase: CNPG_PHASES.failOver,
        phaseReason: obs.message ?? `Failing over from ${name}-1 to ${name}-2`,
      };
    case 'updating':
      // A new image restarts the instances one by one; new instances are joined as replicas.
      return obs.runningVersion !== obs.desiredVersion ||
        ready >= obs.desiredReplicas
        ? {
            phase: CNPG_PHASES.upgrade,
            phaseReason:
              obs.message ??
              `Restarting instance ${name}-${Math.min(ready + 1, obs.desiredReplicas)}, because: the image changed`,
          }
        : {
            phase: CNPG_PHASES.creatingReplica,
            phaseReason: `Creating replica ${name}-${ready + 1}-join`,
          };
    default:
      return ready === 0
        ? {
            phase: CNPG_PHASES.firstPrimary,
            phaseReason: `Creating primary instance ${name}-1`,
          }
        : {
            phase: CNPG_PHASES.creatingReplica,
            phaseReason: `Creating replica ${name}-${ready + 1}-join`,
          };
  }
}

function status(
  cr: StoredObject,
  _kind: CustomKind,
  obs: Observation,
): Record<string, unknown> | undefined {
  // The Cluster has no finalizer: children go by ownerReference, the status stays as it was;
  // so it does with the reconciliation loop disabled.
  if (obs.stage === 'deleting' || obs.paused)
    return cr.status as Record<string, unknown> | undefined;
  const previous = (cr.status as Record<string, any>) ?? {};
  // hibernated (docs/declarative_hibernation.md): the phase and Ready stay as they were, the
  // cnpg.io/hibernation condition says so, and no instance runs
  if (hibernated(cr)) {
    const { readyInstances: _gone, instancesStatus: _none, ...kept } = previous;
    return {
      ...kept,
      instances: 0,
      conditions: withCondition(
        previous.conditions,
        {
          type: 'cnpg.io/hibernation',
          status: 'True',
          reason: 'Hibernated',
          message: 'Cluster has been hibernated',
        },
        obs.now,
      ),
    };
  }
  const name = cr.metadata.name;
  const image = imageOf(cr);
  const pods = Math.max(obs.sets[0]?.pods ?? 0, obs.readyReplicas);
  const ready = obs.readyReplicas;
  const names = instanceNames(name, pods);
  const memo = (obs.memo ??= {});
  const lost = obs.stage === 'ready' && typeof memo.lostPrimary === 'string' ? memo.lostPrimary : undefined;
  const failover = lost ? failoverRound(memo, lost, names) : undefined;
  const moving = obs.stage === 'ready' && !failover ? switchover(previous, names, ready, memo) : undefined;
  const { phase, phaseReason } =
    (failover && !failover.done && { phase: CNPG_PHASES.failOver, phaseReason: failover.reason }) ||
    (moving && !moving.done && { phase: CNPG_PHASES.switchover, phaseReason: `Switching over to ${moving.to}` }) ||
    phaseOf(name, obs);
  const healthy = phase === CNPG_PHASES.healthy;
  const promoted = failover?.done ?? (moving?.done ? moving.to : undefined);
  const primary = promoted ?? (previous.currentPrimary ?? `${name}-1`);
  const failingOver = phase === CNPG_PHASES.failOver;
  // a switchover asked for (kubectl cnpg promote writes status.targetPrimary) that cannot start
  // this round (not every instance ready, a rollout): CloudNativePG keeps the request until it
  // carries it out; writing the current primary back would drop it
  const requested = previous.targetPrimary;
  const waiting =
    !failover && !failingOver && typeof requested === 'string' && requested !== 'pending' && requested !== primary && names.includes(requested)
      ? requested
      : undefined;
  const conditions = nextConditions(
    previous.conditions,
    [
      // SetClusterReadyCondition: a function of the phase alone.
      healthy
        ? {
            type: 'Ready',
            status: 'True',
            reason: 'ClusterIsReady',
            message: 'Cluster is Ready',
          }
        : {
            type: 'Ready',
            status: 'False',
            reason: 'ClusterIsNotReady',
            message: 'Cluster Is Not Ready',
          },
      pods > 0 ||
      previous.conditions?.some(
        (c: any) => c.type === 'Initialized' && c.status === 'True',
      )
        ? {
            type: 'Initialized',
            status: 'True',
            reason: 'BootstrapCompleted',
            message: 'Cluster has been bootstrapped',
          }
        : {
            type: 'Initialized',
            status: 'False',
            reason: 'BootstrapPending',
            message: 'Cluster has not been bootstrapped yet',
          },
    ],
    obs.now,
  );
  // status.image is what the operator resolved from the spec, at once; pgDataImageInfo is the
  // image the data directory runs, which moves once the instances run the new image.
  const settled =
    obs.runningVersion !== undefined &&
    obs.runningVersion === obs.desiredVersion;
  const running: string | undefined = settled
    ? image
    : (previous.pgDataImageInfo?.image ?? (ready > 0 ? image : undefined));
  const major = running ? versionOf(running)?.split('.')[0] : undefined;
  return {
    phase,
    ...(phaseReason && { phaseReason }),
    conditions,
    instances: pods,
    // Omitted, not 0, when nothing is ready.
    ...(ready > 0 && { readyInstances: ready }),
    ...(pods > 0 && {
      instanceNames: names,
      instancesStatus: { healthy: names.filter(n => n !== memo.lostPrimary).slice(0, ready) },
      latestGeneratedNode: pods,
    }),
    ...(ready > 0 && { currentPrimary: primary }),
    targetPrimary: failover?.target ?? (failingOver ? 'pending' : (moving?.to ?? waiting ?? primary)),
    // when the switchover was asked for (the client's), and when the new primary took over
    ...(previous.targetPrimaryTimestamp !== undefined ? { targetPrimaryTimestamp: previous.targetPrimaryTimestamp } : {}),
    ...(promoted ? { currentPrimaryTimestamp: obs.now } : {}),
    ...(!promoted && previous.currentPrimaryTimestamp !== undefined ? { currentPrimaryTimestamp: previous.currentPrimaryTimestamp } : {}),
    image,
    ...(running &&
      major && {
        pgDataImageInfo: { image: running, majorVersion: Number(major) },
      }),
    writeService: `${name}-rw`,
    readService: `${name}-r`,
  };
}

/**
 * Emulated CloudNativePG: for a Cluster `<n>`, instance pods `<n>-1..` (counted, no
 * StatefulSet), Services `<n>-rw`, `<n>-ro`, `<n>-r` and the Secret `<n>-app`; the status walks
 * the operator's phase sentences ("Setting up primary", "Creating a new replica", "Cluster in
 * healthy state", "Upgrading cluster"...).
 */
export const cloudnativePgOperator: EmulatedOperator = {
  demo: cloudnativePgDemo,
  id: 'cloudnative-pg',
  kinds: [CNPG_CLUSTER_KIND],
  desired: (cr, _kind, ctx) => desired(cr, ctx?.memo),
  // a single instance has no other to fail over to
  primaryPod: cr => ((spec(cr).instances ?? 1) > 1 ? primaryOf(cr) : undefined),
  // cnpg.io/reconciliationLoop: disabled leaves the cluster and its status alone
  paused: cr =>
    cr.metadata.annotations?.['cnpg.io/reconciliationLoop'] === 'disabled',
  status: (cr, kind, obs) => withRecovery(cr, obs, status(cr, kind, obs)),
  backups: cnpgBackups,
};
