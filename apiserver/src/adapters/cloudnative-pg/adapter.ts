import { pausedOf } from '../../writes/pauseSwitch';
import { postgresqlPrimary } from './primary';
import type { Condition, Endpoint } from '@internal/plugin-databases-common';
import { toInstance } from '../../status/toInstance';
import { adapterBasics } from '../shared/adapterBasics';
import {
  asArray,
  asNumber,
  asRecord,
  deletionProtectionOf,
  findCondition,
  nameOf,
  namespaceOf,
  resourcesOf,
  serviceEndpoint,
  versionFromImage,
} from '../shared/read';
import { cloudnativePgBackups } from './backup';
import { cloudnativePgFindings } from './findings';
import { storageOf } from '../shared/storageOf';
import type { KubeObject, OperatorAdapter, SourceKind } from '../types';
import { appSecretName } from './appSecretName';
import { clusterFacts } from './clusterFacts';
import { postgresqlRestore } from './restore';
import { POSTGRES_PORT, postgresqlPause, postgresqlWriteSide } from './write';
import { withMembers } from '../shared/members';
import { cnpgMembers } from './members';

const CLUSTER: SourceKind = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'clusters',
  kind: 'Cluster',
  topologies: ['standalone', 'replication'],
};

/**
 * The PostgreSQL major or minor the spec asks for: the image tag (`18.4-system-trixie` →
 * `18.4`), or the major an ImageCatalog entry is chosen by. Neither means the operator's
 * default image, which names no version in the object.
 */
function specVersion(spec: Record<string, any>): string | undefined {
  const major = asNumber(asRecord(spec.imageCatalogRef)?.major);
  return (
    versionFromImage(spec.imageName) ??
    (major !== undefined ? String(major) : undefined)
  );
}

/**
 * What runs: the image of the data directory (`pgDataImageInfo`, since 1.26, moves when the
 * instances run it), else the image the operator resolved from the spec, else the data's major.
 */
function runningVersion(status: Record<string, any>): string | undefined {
  const data = asRecord(status.pgDataImageInfo);
  const major = asNumber(data?.majorVersion);
  return (
    versionFromImage(data?.image) ??
    versionFromImage(status.image) ??
    (major !== undefined ? String(major) : undefined)
  );
}

/**
 * `<name>-rw` (the primary), `<name>-ro` (standbys only) and `<name>-r` (any ready instance),
 * minus the defaults the Cluster disables (`spec.managed.services.disabledDefaultServices`).
 */
function endpoints(source: KubeObject): Endpoint[] {
  const name = nameOf(source);
  const ns = namespaceOf(source);
  const disabled = new Set(
    asArray(
      asRecord(asRecord(asRecord(source.spec)?.managed)?.services)
        ?.disabledDefaultServices,
    ),
  );
  const all: Array<[string, string]> = [
    ['primary', 'rw'],
    ['readonly', 'ro'],
    ['any', 'r'],
  ];
  return all
    .filter(([, suffix]) => suffix === 'rw' || !disabled.has(suffix))
    .map(([endpoint, suffix]) =>
      serviceEndpoint(endpoint, `${name}-${suffix}`, ns, POSTGRES_PORT),
    );
}

/**
 * WAL archiving and the last backup, mirrored from the operator's conditions: they do not
 * change whether the cluster serves, but a failing archiver breaks point-in-time recovery, so
 * the instance shows them as they are.
 */
function backupConditions(status: Record<string, any>): Condition[] {
  const out: Condition[] = [];
  for (const type of ['ContinuousArchiving', 'LastBackupSucceeded']) {
    const c = findCondition(status, type);
    if (c?.status !== 'True' && c?.status !== 'False') continue;
    out.push({
      type,
      status: c.status,
      ...(c.reason && { reason: c.reason }),
      ...(c.message && { message: c.message }),
      ...(c.lastTransitionTime && { lastTransitionTime: c.lastTransitionTime }),
    });
  }
  return out;
}

/**
 * CloudNativePG: Cluster (a primary and streaming standbys). OperatorHub capability level 5
 * (Auto Pilot: `capabilities: Auto Pilot` in its ClusterServiceVersion,
 * config/olm-manifests/bases/cloudnative-pg.clusterserviceversion.yaml).
 */
export const cloudnativePgAdapter: OperatorAdapter = withMembers({
  ...adapterBasics(postgresqlWriteSide(CLUSTER), [CLUSTER]),
  capabilityLevel: 5,
  // Pods and PVCs carry the cluster label (pkg/utils labels.go).
  memberSelectors: source => [{ 'cnpg.io/cluster': nameOf(source) }],
  findings: cloudnativePgFindings,
  backups: cloudnativePgBackups,
  project(source, kind) {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const instances = asNumber(spec.instances) ?? 1;
    const storage = asRecord(spec.storage) ?? {};
    return toInstance({
      operator: 'cloudnative-pg',
      engine: 'postgresql',
      kind,
      source,
      spec: {
        version: specVersion(spec),
        topology: instances > 1 ? 'replication' : 'standalone',
        replicas: instances,
        storage: storageOf(storage.size, storage.storageClass),
        resources: resourcesOf(spec.resources),
        deletionProtection: deletionProtectionOf(source),
        paused: pausedOf(postgresqlPause, source),
        primary: postgresqlPrimary.read(source),
        restoreFrom: postgresqlRestore.read(source),
      },
      facts: clusterFacts(source),
      version: runningVersion(status),
      endpoints: endpoints(source),
      credentialsSecretRef: { name: appSecretName(source) },
      upstreamConditions: [findCondition(status, 'Ready')],
      conditions: backupConditions(status),
    });
  },
}, cnpgMembers);
