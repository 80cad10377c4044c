/**
 * The one source of truth for the DatabaseInstance / DatabaseEngine schemas served in OpenAPI v2
 * and v3. Every field carries a description (`kubectl explain`), enums list engines, topologies and
 * phases (the engines and their topologies from the adapter registry). Kept in step with
 * `@internal/plugin-databases-common` types by hand.
 */
import {
  DATABASE_INSTANCE_CONNECTION_KIND,
  DATABASE_INSTANCE_DIAGNOSIS_KIND,
  DATABASE_INSTANCE_KIND,
  DATABASE_PHASES,
} from '@internal/plugin-databases-common';
import { engineNames } from '../adapters/registry';
import { engineSchemas } from './engineSchemas';
import { backupSchemas } from './backupSchemas';
import { META_NAMES, metaSchemas, ref, refField } from './metaSchemas';
import { API_VERSION, gvk, KIND, quantity, schemaName, str, TOPOLOGIES, topologiesPerEngine } from './schemaBuilders';
import { listSchema } from './listSchema';
import type { Schema } from './types';

export { schemaName } from './schemaBuilders';

/** The DatabaseInstance schemas and its subresources' (connection, diagnosis). */
const instanceSchemas: Record<string, Schema> = {
  [schemaName('ResourceList')]: {
    type: 'object',
    description: 'Amounts of compute resources.',
    properties: {
      cpu: quantity('CPU, in cores.'),
      memory: quantity('Memory, in bytes.'),
    },
  },
  [schemaName('ResourceRequirements')]: {
    type: 'object',
    description: 'Compute resources per database server (per replica).',
    properties: {
      limits: refField(schemaName('ResourceList'), 'Limits describes the maximum amount of compute resources allowed.', false),
      requests: refField(schemaName('ResourceList'), 'Requests describes the minimum amount of compute resources required.', false),
    },
  },
  [schemaName('StorageSpec')]: {
    type: 'object',
    description: 'Persistent storage per database server.',
    properties: {
      size: quantity('Size of the volume of each server, e.g. 10Gi. May grow, never shrink.'),
      storageClassName: str('StorageClass of the volumes; the cluster default when empty.'),
    },
  },
  [schemaName('DatabaseInstanceSpec')]: {
    type: 'object',
    description: 'DatabaseInstanceSpec is the desired state of a database, in the same terms for every engine.',
    required: ['engine'],
    properties: {
      engine: str('Database engine; decides which operator runs the instance.', {
        enum: engineNames(),
      }),
      version: str('Engine version, e.g. "11.4"; mapped to the operator\'s image or version field. Upgrades only.'),
      topology: str(
        `How servers are arranged. Per engine: ${topologiesPerEngine}.`,
        { enum: [...TOPOLOGIES] },
      ),
      replicas: { type: 'integer', format: 'int32', description: 'Number of database servers.' },
      storage: refField(schemaName('StorageSpec'), 'Persistent storage of each server.', false),
      resources: refField(schemaName('ResourceRequirements'), 'CPU and memory of each server.', false),
      deletionProtection: {
        type: 'boolean',
        description: 'When true, delete is refused until this is cleared.',
      },
      paused: {
        type: 'boolean',
        description:
          'When true, the operator is told to stop the instance on purpose (CloudNativePG hibernation, mariadb-operator spec.suspend, the RabbitMQ pause-reconciliation label, ECK pause-orchestration); false resumes it. Refused where the operator has no way to pause.',
      },
      primary: str(
        'The member (pod name, one of status.members) to be primary. Changing it is a switchover (mariadb-operator replication: its primary pod index; CloudNativePG: a promotion, as kubectl cnpg promote does): Updating with reason Switchover until the operator reports it. Refused where the operator has no switchover, or the member does not exist or is not ready.',
      ),
      restoreFrom: refField(
        schemaName('RestoreFrom'),
        'Only on create: restore the new instance from a backup ({backup}) or to a point in time ({instance, pointInTime}); Provisioning with reason Restoring until the operator has restored it. An update that adds or changes it is refused.',
        false,
      ),
    },
  },
  [schemaName('RestoreFrom')]: {
    type: 'object',
    description:
      'Where a new instance\'s data comes from: a DatabaseBackup, or an instance and a point in time where the engine offers one (DatabaseEngine spec.backup.pointInTime: CloudNativePG). Only on create.',
    properties: {
      backup: str('Name of a Succeeded, restorable DatabaseBackup of the same engine in this namespace.'),
      instance: str('Name of the instance (with a backup destination) whose base backup and archived WAL are replayed.'),
      pointInTime: str('RFC 3339 time to stop the recovery at; not in the future.', { format: 'date-time' }),
    },
  },
  [schemaName('SourceReference')]: {
    type: 'object',
    description: 'The operator object this instance is projected from.',
    required: ['apiVersion', 'kind', 'name', 'operator'],
    properties: {
      apiVersion: str('apiVersion of the operator object, e.g. k8s.mariadb.com/v1alpha1.'),
      kind: str('kind of the operator object, e.g. MariaDB.'),
      name: str('name of the operator object (same namespace as the instance).'),
      operator: str('Upstream operator project, e.g. mariadb-operator.'),
    },
  },
  [schemaName('ReplicaStatus')]: {
    type: 'object',
    description: 'Replica counts as the operator reports them.',
    properties: {
      desired: { type: 'integer', format: 'int32', description: 'Servers wanted.' },
      ready: { type: 'integer', format: 'int32', description: 'Servers ready to serve.' },
    },
  },
  [schemaName('Endpoint')]: {
    type: 'object',
    description: 'A network endpoint of the database.',
    required: ['name', 'host', 'port'],
    properties: {
      name: str('Role of the endpoint: primary, readonly, http, amqp, ...'),
      host: str('DNS name inside the cluster, e.g. orders-db-primary.team-a.svc.'),
      port: { type: 'integer', format: 'int32', description: 'TCP port.' },
    },
  },
  [schemaName('SecretReference')]: {
    type: 'object',
    description: 'A Secret in the same namespace.',
    required: ['name'],
    properties: { name: str('Name of the Secret.') },
  },
  [schemaName('DatabaseMember')]: {
    type: 'object',
    description: 'One member (pod) of an instance, as its operator and its pod tell.',
    required: ['name', 'role', 'ready'],
    properties: {
      name: str("The pod's name."),
      role: str('The role in the common vocabulary: member where all members are equal (Galera, Elasticsearch, RabbitMQ, Sentinels).', {
        enum: ['primary', 'replica', 'member'],
      }),
      engineRole: str("The engine's own word: InnoDB Cluster PRIMARY/SECONDARY, Redis master/slave, Elasticsearch node roles, MariaDB replication roles."),
      ready: { type: 'boolean', description: "The pod's Ready condition is True." },
      host: str("The member's own DNS name through the operator's headless Service; absent where the operator makes none (CloudNativePG)."),
      node: str('The node the pod runs on.'),
      zone: str("The pod's topology.kubernetes.io/zone label, where it carries one."),
      since: str('Since when it has had this role, where the operator records it (RFC 3339).', { format: 'date-time' }),
    },
  },
  [schemaName('DatabaseInstanceStatus')]: {
    type: 'object',
    description: 'DatabaseInstanceStatus is the observed state, normalised to one lifecycle for every engine.',
    required: ['phase', 'source'],
    properties: {
      phase: str(
        'Lifecycle phase, the same for every engine. Pending: the operator has not acted yet. Provisioning: first creation under way. Ready: serving and healthy. Updating: a change is being rolled out. Degraded: serving but not healthy. Failed: not serving, or the operator reports an error. Paused: on purpose not serving or not reconciled (hibernation, suspended reconciliation). Deleting: deletion under way. Unknown: the facts do not allow a verdict.',
        { enum: [...DATABASE_PHASES] },
      ),
      reason: str('Why the instance is in this phase; PascalCase, machine-readable.'),
      message: str("Human-readable detail: the operator's own words, verbatim where it has them."),
      conditions: {
        type: 'array',
        description:
          "Conditions of the instance. Ready mirrors the phase (True only when Ready, Unknown when Unknown). kstatus's (Flux's) Reconciling (Pending, Provisioning, Updating, Deleting) and Stalled (Failed, Paused) are present, True, only while they hold.",
        items: { default: {}, allOf: [ref(META_NAMES.condition)] },
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      },
      source: refField(schemaName('SourceReference'), 'The operator object this instance is projected from.'),
      operatorStatus: {
        type: 'object',
        description: "The operator object's status, untouched, for humans and debugging.",
        'x-kubernetes-preserve-unknown-fields': true,
      },
      version: str("Running engine version as the operator reports it (the spec's when it reports none)."),
      replicas: refField(schemaName('ReplicaStatus'), 'Desired and ready servers.', false),
      endpoints: {
        type: 'array',
        description: 'Where clients connect.',
        items: { default: {}, allOf: [ref(schemaName('Endpoint'))] },
        'x-kubernetes-list-type': 'atomic',
      },
      credentialsSecretRef: refField(schemaName('SecretReference'), 'Secret holding the credentials (read them through the connection subresource).', false),
      binding: refField(
        schemaName('SecretReference'),
        'servicebinding.io Provisioned Service: the Secret an application binds to (type, provider, host, port, username, password, database, uri); absent until it exists.',
        false,
      ),
      backup: refField(
        schemaName('InstanceBackupStatus'),
        "What the instance can do about backups now (its engine's capabilities narrowed by its operator object's configuration, with the reason where it can do none) and the last runs its operator records on the object. Each run is a DatabaseBackup.",
        false,
      ),
      observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation this status was computed for.' },
      members: {
        type: 'array',
        description: 'Every member (pod) the operator runs for the instance, in the order the operator names them, with its role.',
        items: { default: {}, allOf: [ref(schemaName('DatabaseMember'))] },
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
      },
    },
  },
  [schemaName(DATABASE_INSTANCE_KIND)]: {
    type: 'object',
    description:
      `DatabaseInstance is one database of any supported engine (${engineNames().join(', ')}), projected from the object of the operator that runs it, with one lifecycle for all engines.`,
    required: ['spec'],
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, "Standard object's metadata. name, namespace, uid and creationTimestamp are the operator object's."),
      spec: refField(schemaName('DatabaseInstanceSpec'), 'Desired state of the database.'),
      status: refField(schemaName('DatabaseInstanceStatus'), 'Observed state of the database. Read-only.'),
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_INSTANCE_KIND),
  },
  ...listSchema(DATABASE_INSTANCE_KIND),
  [schemaName('ConnectionEndpoint')]: {
    type: 'object',
    description: 'A network endpoint of the database with the URI a client would use for it.',
    required: ['name', 'host', 'port'],
    properties: {
      name: str('Role of the endpoint: primary, readonly, http, amqp, sentinel, ...'),
      host: str('DNS name inside the cluster.'),
      port: { type: 'integer', format: 'int32', description: 'TCP port.' },
      uri: str('Connection URI for this endpoint, credentials URL-encoded.'),
    },
  },
  [schemaName(DATABASE_INSTANCE_CONNECTION_KIND)]: {
    type: 'object',
    description:
      'DatabaseInstanceConnection is what the connection subresource of a DatabaseInstance returns: where to connect and with which credentials, read from the operator\'s Secret at request time. Reading it is its own permission (databaseinstances/connection).',
    required: ['engine', 'host', 'port', 'uri', 'endpoints'],
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, 'name, namespace, uid and resourceVersion of the instance.'),
      engine: str('Engine of the instance.', { enum: engineNames() }),
      host: str('Host of the primary (read-write) endpoint.'),
      port: { type: 'integer', format: 'int32', description: 'Port of the primary endpoint.' },
      username: str('User to connect as; absent when the engine runs without users.'),
      password: str('Password; absent when the engine runs without authentication.'),
      database: str('Database to connect to, where the operator created one for the application (PostgreSQL).'),
      uri: str('Connection URI of the primary endpoint (mysql://, postgresql://, redis://, https://, amqp://), credentials URL-encoded.'),
      endpoints: {
        type: 'array',
        description: 'Every endpoint (primary, readonly, sentinel, management, ...).',
        items: { default: {}, allOf: [ref(schemaName('ConnectionEndpoint'))] },
        'x-kubernetes-list-type': 'atomic',
      },
      secretRef: refField(schemaName('SecretReference'), 'The Secret the credentials were read from.', false),
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_INSTANCE_CONNECTION_KIND),
  },
  [schemaName('DiagnosisObjectRef')]: {
    type: 'object',
    description: 'An object a finding is about.',
    required: ['apiVersion', 'kind', 'name'],
    properties: {
      apiVersion: str('API version of the object.'),
      kind: str('Kind of the object (Pod, PersistentVolumeClaim, the operator kind).'),
      name: str('Name of the object.'),
      namespace: str('Namespace of the object.'),
    },
  },
  [schemaName('DiagnosisFinding')]: {
    type: 'object',
    description: 'One thing wrong with an instance, in plain words, with what to do about it.',
    required: ['reason', 'severity', 'message', 'hint', 'objects'],
    properties: {
      reason: str('Machine-readable reason, PascalCase (PersistentVolumeClaimPending, CrashLoopBackOff, GaleraRecoveryInProgress, ...).'),
      severity: str('Error stops the instance serving, Warning weakens it, Info explains.', { enum: ['Error', 'Warning', 'Info'] }),
      message: str('What is wrong.'),
      hint: str('What to do or check next.'),
      objects: {
        type: 'array',
        description: 'The objects the finding is about.',
        items: { default: {}, allOf: [ref(schemaName('DiagnosisObjectRef'))] },
        'x-kubernetes-list-type': 'atomic',
      },
    },
  },
  [schemaName(DATABASE_INSTANCE_DIAGNOSIS_KIND)]: {
    type: 'object',
    description:
      'DatabaseInstanceDiagnosis is what the diagnosis subresource of a DatabaseInstance returns: what is wrong with it, from its operator\'s status, its pods and its volume claims, read at request time. Empty findings when all is well. Reading it is its own permission (databaseinstances/diagnosis).',
    required: ['findings'],
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, 'name, namespace and uid of the instance.'),
      phase: str('Phase of the instance.', { enum: [...DATABASE_PHASES] }),
      reason: str('Reason of the phase.'),
      findings: {
        type: 'array',
        description: 'What is wrong, most specific first.',
        items: { default: {}, allOf: [ref(schemaName('DiagnosisFinding'))] },
        'x-kubernetes-list-type': 'atomic',
      },
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_INSTANCE_DIAGNOSIS_KIND),
  },
};

/** Every schema of the documents: ours plus the meta.k8s.io ones they reference. */
export const allSchemas: Record<string, Schema> = { ...instanceSchemas, ...engineSchemas, ...backupSchemas, ...metaSchemas };
