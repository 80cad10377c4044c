import {
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
} from '@internal/plugin-databases-common';
import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { replicaRulesOf } from '../../writes/replicaRule';
import { claimSpec } from '../../writes/claimSpec';
import { connectionDetails } from '../../writes/connectionDetails';
import { operatorObject } from '../../writes/operatorObject';
import { resourceRequirements } from '../../writes/resources';
import { setResources } from '../../writes/setResources';
import { opaqueSecret, secretValue } from '../../writes/secretValue';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { mysqlRestore } from './restore';
import { updateSide } from '../../writes/updateFrame';
import {
  asArray,
  asRecord,
  asString,
  nameOf,
  namespaceOf,
} from '../shared/read';
import type { AdapterWriteSide, SourceKind } from '../types';

/** MySQL Router's read-write classic port on the `<name>` Service. */
const ROUTER_RW_PORT = 6446;
const MYSQL_CONTAINER = 'mysql';
/** Keys of the root credentials Secret (spec.secretName), as the operator reads them. */
const ROOT_USER_KEY = 'rootUser';
const ROOT_PASSWORD_KEY = 'rootPassword';
const ROOT_USER = 'root';

/** Oracle mysql-operator's rules (docs/engines.md). */
export const mysqlRules: EngineRules = {
  engine: 'mysql',
  operator: 'mysql-operator',
  topologies: ['innodbcluster'],
  // 9.1.0 is the operator's default (9.1.0-2.2.2); 8.4 and 8.0 are LTS lines it supports (>= 8.0.27).
  versions: ['9.1.0', '8.4.3', '8.0.40'],
  runnableVersions: {
    min: '8.0.27',
    max: '9.1.0',
    parts: 3,
    source:
      'mysql-operator runs MySQL 8.0.27 to 9.1.0 (MIN_SUPPORTED_MYSQL_VERSION, its default) and its CRD requires major.minor.patch',
  },
  replicas: replicaRulesOf({
    // Group Replication has at most 9 members (the CRD's maximum too).
    innodbcluster: {
      min: 1,
      max: 9,
      message: 'an InnoDB Cluster has between 1 and 9 members',
    },
  }),
  // The datadir claim template is copied into the StatefulSet, whose claim templates cannot
  // change; the operator does not expand existing claims.
  storageGrowth: false,
  scaleDown: true,
};

/** The root credentials Secret this API creates (the operator requires spec.secretName to exist). */
const rootSecretName = (name: string) => `${name}-root`;

function mysqlContainer(spec: Record<string, any>): Record<string, any> {
  const podSpec = (spec.podSpec = asRecord(spec.podSpec) ?? {});
  const containers = (podSpec.containers = asArray(podSpec.containers));
  let container = containers
    .map(c => asRecord(c))
    .find(c => c?.name === MYSQL_CONTAINER);
  if (!container) {
    container = { name: MYSQL_CONTAINER };
    containers.push(container);
  }
  return container;
}

/** The write side for InnoDBCluster objects. */
export function mysqlWriteSide(kind: SourceKind): AdapterWriteSide {
  return {
    ...rulesWriteSide(mysqlRules, 'innodbcluster'),
    restore: mysqlRestore,
    defaults: () => ({
      version: '8.4.3',
      replicas: 3,
      storage: { size: '10Gi' },
      resources: {
        requests: { cpu: '500m', memory: '1Gi' },
        limits: { memory: '2Gi' },
      },
    }),
    // The CRD itself limits metadata.name to 40 characters.
    maxNameLength: 40,
    kindFor: () => kind,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const name = instance.metadata.name ?? '';
      const resources = resourceRequirements(spec.resources);
      return operatorObject(kind, instance, options, {
        secretName: rootSecretName(name),
        instances: spec.replicas,
        version: spec.version,
        // One Router; clients connect through it (rw 6446, ro 6447).
        router: { instances: 1 },
        tlsUseSelfSigned: true,
        datadirVolumeClaimTemplate: claimSpec(spec.storage),
        ...(resources && {
          podSpec: { containers: [{ name: MYSQL_CONTAINER, resources }] },
        }),
      });
    },
    ...updateSide({
      rules: mysqlRules,
      write(spec, change) {
        if (change.version) spec.version = change.version;
        if (change.replicas !== undefined) spec.instances = change.replicas;
        if (change.resources || asRecord(spec.podSpec))
          setResources(mysqlContainer(spec), change.resources);
      },
    }),
    secretsToCreate(instance, generatePassword) {
      const name = instance.metadata.name ?? '';
      return [
        opaqueSecret(
          rootSecretName(name),
          instance.metadata.namespace,
          { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
          {
            [ROOT_USER_KEY]: ROOT_USER,
            rootHost: '%',
            [ROOT_PASSWORD_KEY]: generatePassword(),
          },
        ),
      ];
    },
    connectionSecretName: source => asString(asRecord(source.spec)?.secretName),
    connection(instance, source, secret) {
      const secretName = asString(asRecord(source.spec)?.secretName);
      const username = secretValue(secret, ROOT_USER_KEY) ?? ROOT_USER;
      const password = secretValue(secret, ROOT_PASSWORD_KEY);
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'primary',
          host: `${nameOf(source)}.${namespaceOf(source)}.svc`,
          port: ROUTER_RW_PORT,
        },
        () => ({ scheme: 'mysql', username, password, path: '/' }),
      );
      return connectionDetails(primary, endpoints, {
        username,
        password,
        secretName,
      });
    },
  };
}
