import { connectionDetails } from '../../writes/connectionDetails';
import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { forbidden, type FieldCause } from '../../writes/FieldCause';
import { imageAtVersion } from '../../writes/imageRef';
import { operatorObject } from '../../writes/operatorObject';
import { replicaRulesOf } from '../../writes/replicaRule';
import { resourceRequirements } from '../../writes/resources';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { markerPause } from '../../writes/pauseSwitch';
import { updateSide } from '../../writes/updateFrame';
import { postgresqlPrimary } from './primary';
import { secretValue } from '../../writes/secretValue';
import { setResources } from '../../writes/setResources';
import { storageRequest } from '../../writes/storageRequest';
import { asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { AdapterWriteSide, SourceKind } from '../types';
import { appSecretName } from './appSecretName';
import { postgresqlRestore } from './restore';

export const POSTGRES_PORT = 5432;
/**
 * The operator's own image line: with no imageName it runs
 * `ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie` (pkg/versions/versions.go, v1.30.0),
 * so new clusters name the same repository and flavour, at the version asked for.
 */
const IMAGE = 'ghcr.io/cloudnative-pg/postgresql';
const IMAGE_SUFFIX = '-system-trixie';
/** In-place major upgrades (pg_upgrade, phase "Upgrading Postgres major version") came in 1.26. */
const MAJOR_UPGRADE_SINCE = '1.26';

/** CloudNativePG's rules (docs/engines.md). */
export const postgresqlRules: EngineRules = {
  engine: 'postgresql',
  operator: 'cloudnative-pg',
  topologies: ['standalone', 'replication'],
  // The newest minor of each major CNPG 1.30 supports (14 - 18); 18.4 is its default image.
  // 18.3 (2026-02) stays on offer so that clusters on it can move to 18.4 by image.
  versions: ['18.4', '18.3', '17.10', '16.14', '15.18', '14.23'],
  runnableVersions: {
    min: '14',
    source:
      'CloudNativePG 1.30 supports PostgreSQL 14 to 18 (docs/src/supported_releases.md)',
  },
  replicas: replicaRulesOf({
    standalone: {
      min: 1,
      max: 1,
      message: 'standalone runs exactly 1 instance',
    },
    replication: {
      min: 2,
      message:
        'replication needs at least 2 instances (a primary and a streaming standby)',
    },
  }),
  storageGrowth: true, // spec.storage.resizeInUseVolumes defaults to true
  scaleDown: true, // the operator removes standbys, highest serial first
  // One Cluster kind serves both: `spec.instances` 1 is a lone primary, more add standbys.
  topologyForReplicas: n => (n > 1 ? 'replication' : 'standalone'),
  majorUpgradeRefusal:
    `an in-place major upgrade needs CloudNativePG ${MAJOR_UPGRADE_SINCE} or later, which runs it offline with pg_upgrade ` +
    'and cannot roll it back, so it is not offered here; create a new instance on the new major and move the data',
};

/**
 * A minor version change on a cluster whose image comes from an ImageCatalog: the catalog, not
 * the Cluster, says which minor runs, so there is nothing to change here.
 */
function catalogVersionProblem(
  spec: Record<string, any>,
): FieldCause | undefined {
  const catalog = asRecord(spec.imageCatalogRef);
  if (!catalog) return undefined;
  return forbidden(
    'spec.version',
    `the image of this cluster comes from ${asString(catalog.kind) ?? 'ImageCatalog'} ` +
      `${JSON.stringify(asString(catalog.name) ?? '')}: change the version there`,
  );
}

/** `spec.bootstrap.initdb.database`: the application database (CRD default `app`). */
const initdbDatabase = (source: { spec?: any }) =>
  asString(
    asRecord(asRecord(asRecord(source.spec)?.bootstrap)?.initdb)?.database,
  );

/**
 * Declarative hibernation (cnpg.io/hibernation: on): pods go, PVCs stay. A resume also lifts a
 * disabled reconciliation loop, the other pause the operator honours.
 */
export const postgresqlPause = markerPause('annotations', 'cnpg.io/hibernation', 'on', {
  'cnpg.io/reconciliationLoop': 'disabled',
});

/** The write side for CloudNativePG Clusters (standalone = 1 instance, replication = more). */
export function postgresqlWriteSide(kind: SourceKind): AdapterWriteSide {
  return {
    ...rulesWriteSide(postgresqlRules, 'standalone'),
    restore: postgresqlRestore,
    defaults: topology => ({
      version: '18.4',
      replicas: topology === 'replication' ? 3 : 1,
      storage: { size: '10Gi' },
      resources: {
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { memory: '1Gi' },
      },
    }),
    // CloudNativePG's webhook refuses Cluster names longer than 50 characters (its derived
    // names: Jobs `<name>-<serial>-snapshot-recovery`, PVCs `<name>-<serial>-wal`).
    maxNameLength: 50,
    kindFor: () => kind,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const resources = resourceRequirements(spec.resources);
      return operatorObject(kind, instance, options, {
        instances: spec.replicas,
        imageName: `${IMAGE}:${spec.version}${IMAGE_SUFFIX}`,
        // CloudNativePG spells the class `storageClass` (not storageClassName).
        storage: storageRequest(spec.storage, 'size', 'storageClass'),
        ...(resources && { resources }),
      });
    },
    ...updateSide({
      rules: postgresqlRules,
      pause: postgresqlPause,
      primary: postgresqlPrimary,
      refuse(current, next, previous, found) {
        const versionChanged =
          next.version && previous.version && next.version !== previous.version;
        const problem = versionChanged
          ? catalogVersionProblem(asRecord(current.spec) ?? {})
          : undefined;
        // A refusal of the shared rules (a downgrade, a major) already names the field.
        return problem && found.every(c => c.field !== 'spec.version')
          ? [problem]
          : [];
      },
      write(spec, change) {
        if (change.version)
          // A minor upgrade: the operator restarts the standbys on the new image, then switches
          // over (or restarts) the primary per primaryUpdateStrategy/primaryUpdateMethod.
          spec.imageName = imageAtVersion(
            spec.imageName,
            change.version,
            IMAGE,
            IMAGE_SUFFIX,
          );
        if (change.replicas !== undefined) spec.instances = change.replicas;
        if (change.storageSize)
          spec.storage = {
            ...asRecord(spec.storage),
            size: change.storageSize,
          };
        setResources(spec, change.resources);
      },
    }),
    // The operator generates `<name>-app` (user and database `app`) at bootstrap.
    secretsToCreate: () => [],
    connectionSecretName: appSecretName,
    connection(instance, source, secret) {
      const username =
        secretValue(secret, 'username') ?? secretValue(secret, 'user');
      const password = secretValue(secret, 'password');
      const database =
        secretValue(secret, 'dbname') ?? initdbDatabase(source) ?? 'app';
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'primary',
          host: `${nameOf(source)}-rw.${namespaceOf(source)}.svc`,
          port: POSTGRES_PORT,
        },
        () => ({
          scheme: 'postgresql',
          username,
          password,
          path: `/${encodeURIComponent(database)}`,
        }),
      );
      return connectionDetails(primary, endpoints, {
        username,
        password,
        database,
        secretName: appSecretName(source),
      });
    },
  };
}
