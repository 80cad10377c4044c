import { mariadbRestore } from './restore';
import type { DatabaseTopology } from '@internal/plugin-databases-common';
import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { replicaRulesOf } from '../../writes/replicaRule';
import { imageAtVersion } from '../../writes/imageRef';
import { connectionDetails } from '../../writes/connectionDetails';
import { operatorObject } from '../../writes/operatorObject';
import { resourceRequirements } from '../../writes/resources';
import { setResources } from '../../writes/setResources';
import { storageRequest } from '../../writes/storageRequest';
import { secretValue } from '../../writes/secretValue';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { specFieldPause } from '../../writes/pauseSwitch';
import { updateSide } from '../../writes/updateFrame';
import { mariadbPrimary } from './primary';
import { asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type {
  AdapterWriteSide,
  InstanceDefaults,
  KubeObject,
  SourceKind,
} from '../types';

const PORT = 3306;
/** Official images only (the operator's README); the tag is the version. */
const IMAGE = 'mariadb';
const ROOT_USER = 'root';
const ROOT_PASSWORD_KEY = 'password';

const REPLICAS: Record<string, number> = {
  standalone: 1,
  replication: 3,
  galera: 3,
};

/** mariadb-operator's rules (docs/engines.md). */
export const mariadbRules: EngineRules = {
  engine: 'mariadb',
  operator: 'mariadb-operator',
  topologies: ['standalone', 'replication', 'galera'],
  // Community >= 10.6; 11.4 (LTS) is our default, 11.8 the operator's own.
  versions: ['11.8', '11.4', '10.11', '10.6'],
  runnableVersions: {
    min: '10.6',
    source: 'mariadb-operator supports MariaDB Community 10.6 and later',
  },
  replicas: replicaRulesOf({
    standalone: {
      min: 1,
      max: 1,
      message: 'standalone runs exactly 1 replica',
    },
    replication: {
      min: 2,
      message:
        'replication needs at least 2 replicas (a primary and a replica)',
    },
    // The CRD's own rule (replicasAllowEvenNumber aside): an even Galera cluster can split brain.
    galera: {
      min: 3,
      odd: true,
      message: 'galera needs an odd number of replicas, at least 3',
    },
  }),
  storageGrowth: true, // spec.storage.resizeInUseVolumes defaults to true
  scaleDown: true,
};

/**
 * The root password Secret. `generate: true` makes the operator create it (`<name>-root`,
 * the operator's own default name), so no Secret has to exist beforehand.
 */
const rootSecretRef = (name: string) => ({
  name: `${name}-root`,
  key: ROOT_PASSWORD_KEY,
  generate: true,
});

/** The Secret holding the root password (none with rootEmptyPassword). */
function rootSecretName(source: KubeObject): string | undefined {
  const spec = asRecord(source.spec) ?? {};
  if (spec.rootEmptyPassword === true) return undefined;
  return (
    asString(asRecord(spec.rootPasswordSecretKeyRef)?.name) ??
    `${nameOf(source)}-root`
  );
}

function topologySpec(topology: DatabaseTopology | undefined) {
  if (topology === 'galera') return { galera: { enabled: true } };
  if (topology === 'replication') return { replication: { enabled: true } };
  return {};
}

/** spec.suspend: the operator stops reconciling (its Ready condition then says Suspended). */
export const mariadbPause = specFieldPause('suspend');

/** The write side for MariaDB objects. */
export function mariadbWriteSide(kind: SourceKind): AdapterWriteSide {
  return {
    ...rulesWriteSide(mariadbRules, 'standalone'),
    restore: mariadbRestore,
    defaults: (topology): InstanceDefaults => ({
      version: '11.4',
      replicas: REPLICAS[topology] ?? 1,
      storage: { size: '10Gi' },
      resources: {
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { memory: '1Gi' },
      },
    }),
    // The longest derived name is the StatefulSet `<name>`, whose pods carry a
    // controller-revision-hash label `<name>-<10 chars>` that must fit 63.
    maxNameLength: 52,
    kindFor: () => kind,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const name = instance.metadata.name ?? '';
      return operatorObject(kind, instance, options, {
        image: `${IMAGE}:${spec.version}`,
        replicas: spec.replicas,
        rootPasswordSecretKeyRef: rootSecretRef(name),
        port: PORT,
        storage: storageRequest(spec.storage),
        ...(spec.resources && {
          resources: resourceRequirements(spec.resources),
        }),
        ...topologySpec(spec.topology),
      });
    },
    ...updateSide({
      rules: mariadbRules,
      pause: mariadbPause,
      primary: mariadbPrimary,
      write(spec, change) {
        if (change.version)
          spec.image = imageAtVersion(spec.image, change.version, IMAGE);
        if (change.replicas !== undefined) spec.replicas = change.replicas;
        if (change.storageSize)
          // storage.size supersedes the claim template's size.
          spec.storage = {
            ...asRecord(spec.storage),
            size: change.storageSize,
          };
        setResources(spec, change.resources);
      },
    }),
    // generate: true lets the operator create the root password itself.
    secretsToCreate: () => [],
    connectionSecretName: rootSecretName,
    connection(instance, source, secret) {
      const spec = asRecord(source.spec) ?? {};
      const ref = asRecord(spec.rootPasswordSecretKeyRef);
      const secretName = rootSecretName(source);
      const password = secretName
        ? secretValue(secret, asString(ref?.key) ?? ROOT_PASSWORD_KEY)
        : undefined;
      const name = nameOf(source);
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'primary',
          host: `${name}.${namespaceOf(source)}.svc`,
          port: PORT,
        },
        // MariaDB speaks the MySQL protocol; mysql:// is understood by MySQL and MariaDB clients alike.
        () => ({ scheme: 'mysql', username: ROOT_USER, password, path: '/' }),
      );
      return connectionDetails(primary, endpoints, {
        username: ROOT_USER,
        password,
        secretName,
      });
    },
  };
}
