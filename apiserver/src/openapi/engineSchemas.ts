/** The DatabaseEngine schemas (cluster-scoped: what each installed operator offers). */
import { DATABASE_ENGINE_KIND } from '@internal/plugin-databases-common';
import { engineNames } from '../adapters/registry';
import { META_NAMES, ref, refField } from './metaSchemas';
import { API_VERSION, gvk, KIND, schemaName, str, TOPOLOGIES } from './schemaBuilders';
import { listSchema } from './listSchema';
import type { Schema } from './types';

export const engineSchemas: Record<string, Schema> = {
  [schemaName('EngineKind')]: {
    type: 'object',
    description: 'One kind the operator serves.',
    required: ['group', 'version', 'kind', 'plural', 'topologies'],
    properties: {
      group: str('API group of the kind.'),
      version: str('API version of the kind.'),
      kind: str('Kind name.'),
      plural: str('Resource (plural) name.'),
      topologies: { type: 'array', description: 'Topologies this kind provides.', items: { type: 'string', enum: [...TOPOLOGIES] } },
    },
  },
  [schemaName('DatabaseEngineSpec')]: {
    type: 'object',
    description: 'What the engine offers through its operator.',
    required: ['engine', 'operator', 'capabilityLevel', 'kinds', 'topologies', 'versions'],
    properties: {
      engine: str('Engine name.', { enum: engineNames() }),
      operator: str('Upstream operator project.'),
      capabilityLevel: { type: 'integer', format: 'int32', description: 'OperatorHub capability level, 1 (basic install) to 5 (auto pilot).' },
      kinds: {
        type: 'array',
        description: 'Kinds the operator serves.',
        items: { default: {}, allOf: [ref(schemaName('EngineKind'))] },
      },
      topologies: { type: 'array', description: 'Topologies offered.', items: { type: 'string', enum: [...TOPOLOGIES] } },
      versions: { type: 'array', description: 'Engine versions offered.', items: { type: 'string' } },
      defaults: {
        type: 'object',
        description: 'Spec defaults applied on create (a partial DatabaseInstanceSpec).',
        'x-kubernetes-preserve-unknown-fields': true,
      },
      sizes: {
        type: 'array',
        description:
          "Size presets offered in the portal, smallest first: by default small (the engine's defaults), medium and large; the platform team may replace them (--engine-config).",
        items: { default: {}, allOf: [ref(schemaName('EngineSize'))] },
      },
      maxNameLength: {
        type: 'integer',
        format: 'int32',
        description: "Longest instance name this engine allows: the operator derives object names from it (at most 63).",
      },
      pausable: {
        type: 'boolean',
        description: "Whether the operator has a documented way to pause an instance (spec.paused); false where spec.paused: true is refused.",
      },
      switchover: {
        type: 'boolean',
        description: 'Whether spec.primary can move the primary (a switchover) of instances whose topology has one; false where it is refused.',
      },
      backup: refField(schemaName('BackupCapabilities'), "What the engine's operator can do about backups (DatabaseBackup, schedules, restore).", false),
      replicas: {
        type: 'object',
        description: 'Per topology offered: the replica counts it allows and the count a new instance gets.',
        additionalProperties: { default: {}, allOf: [ref(schemaName('EngineReplicas'))] },
      },
    },
  },
  [schemaName('EngineSize')]: {
    type: 'object',
    description: 'A size preset: storage and compute resources per server, picked instead of typed.',
    required: ['name', 'title', 'storage', 'resources'],
    properties: {
      name: str('Name of the preset, unique per engine, e.g. small.'),
      title: str('What the portal shows, e.g. Small.'),
      storage: refField(schemaName('StorageSpec'), 'Storage of each server (size only).'),
      resources: refField(schemaName('ResourceRequirements'), 'CPU and memory of each server; requests always name both.'),
    },
  },
  [schemaName('EngineReplicas')]: {
    type: 'object',
    description: 'The replica counts one topology allows.',
    required: ['min', 'default', 'description'],
    properties: {
      min: { type: 'integer', format: 'int32', description: 'Fewest replicas.' },
      max: { type: 'integer', format: 'int32', description: 'Most replicas; no upper bound when absent.' },
      odd: { type: 'boolean', description: 'When true, only odd counts (quorum-based topologies).' },
      default: { type: 'integer', format: 'int32', description: 'Replicas of a new instance that names none.' },
      description: str('The rule in words: what the API answers for a count outside it.'),
    },
  },
  [schemaName('CRDStatus')]: {
    type: 'object',
    description: 'Whether one CRD of the operator is served.',
    required: ['kind', 'group', 'installed'],
    properties: {
      kind: str('Kind of the CRD.'),
      group: str('API group of the CRD.'),
      installed: { type: 'boolean', description: 'True when the cluster serves it.' },
    },
  },
  [schemaName('DatabaseEngineStatus')]: {
    type: 'object',
    description: 'Observed state of the engine in this cluster.',
    required: ['installed', 'instances', 'phases'],
    properties: {
      installed: { type: 'boolean', description: 'True when every primary CRD of the operator is served by the cluster.' },
      crds: {
        type: 'array',
        description: 'Per kind: is its CRD served.',
        items: { default: {}, allOf: [ref(schemaName('CRDStatus'))] },
      },
      instances: { type: 'integer', format: 'int32', description: 'Number of instances of this engine.' },
      phases: {
        type: 'object',
        description: 'Number of instances per phase.',
        additionalProperties: { type: 'integer', format: 'int32' },
      },
      conditions: {
        type: 'array',
        description: 'Conditions of the engine.',
        items: { default: {}, allOf: [ref(META_NAMES.condition)] },
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      },
    },
  },
  [schemaName(DATABASE_ENGINE_KIND)]: {
    type: 'object',
    description:
      'DatabaseEngine describes one supported database operator: whether it is installed in this cluster (creationTimestamp: since when), the topologies, versions, sizes and replica counts it offers, and how many instances it has.',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: refField(META_NAMES.objectMeta, "Standard object's metadata. The name is the engine."),
      spec: refField(schemaName('DatabaseEngineSpec'), 'What the engine offers.'),
      status: refField(schemaName('DatabaseEngineStatus'), 'Observed state in this cluster.'),
    },
    'x-kubernetes-group-version-kind': gvk(DATABASE_ENGINE_KIND),
  },
  ...listSchema(DATABASE_ENGINE_KIND),
};
