import type { StoredObject } from '../../store/types';
import { eckDemo } from './demo';
import { nextConditions, withCondition } from '../conditions';

const pausesOrchestration = (cr: StoredObject) =>
  cr.metadata.annotations?.['eck.k8s.elastic.co/pause-orchestration'] === 'true';
const unmanaged = (cr: StoredObject) =>
  cr.metadata.annotations?.['eck.k8s.elastic.co/managed'] === 'false';
import { jsonEqual as deepEqual } from '../../store/jsonEqual';
import { randomPassword, revisionHash } from '../dependentObjects';
import { count } from '../specHelpers';
import type {
  CustomKind,
  DesiredState,
  EmulatedOperator,
  Observation,
  StatefulSetState,
} from '../types';

/** Elasticsearch (elasticsearch.k8s.elastic.co/v1). */
export const ELASTICSEARCH_KIND: CustomKind = {
  group: 'elasticsearch.k8s.elastic.co',
  version: 'v1',
  plural: 'elasticsearches',
  kind: 'Elasticsearch',
};

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};

const NODE_ROLES = ['master', 'data', 'ingest', 'ml', 'transform', 'remote_cluster_client'];

/**
 * pkg/controller/elasticsearch/label: `node-<role>: "true"|"false"` per role, from the node
 * set's `node.roles` (flat or nested); a node without `node.roles` has every role.
 */
function nodeRoleLabels(config: any): Record<string, string> {
  const roles = config?.['node.roles'] ?? config?.node?.roles;
  return Object.fromEntries(
    NODE_ROLES.map(r => [`elasticsearch.k8s.elastic.co/node-${r}`, String(!Array.isArray(roles) || roles.includes(r))]),
  );
}

function desired(cr: StoredObject): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const version: string | undefined = s.version;
  const image: string =
    s.image ||
    `docker.elastic.co/elasticsearch/elasticsearch:${version ?? 'unknown'}`;
  const clusterLabels = {
    'common.k8s.elastic.co/type': 'elasticsearch',
    'elasticsearch.k8s.elastic.co/cluster-name': name,
  };
  const nodeSets: any[] = Array.isArray(s.nodeSets) ? s.nodeSets : [];
  const statefulSets = nodeSets.map(ns => {
    const sts = `${name}-es-${ns.name}`;
    return {
      name: sts,
      replicas: count(ns.count, 1),
      revision: revisionHash({
        version,
        image,
        config: ns.config,
        podTemplate: ns.podTemplate,
        resources: ns.resources,
        vct: ns.volumeClaimTemplates,
      }),
      image,
      serviceName: sts,
      labels: {
        ...clusterLabels,
        'elasticsearch.k8s.elastic.co/statefulset-name': sts,
      },
      podLabels: () => nodeRoleLabels(ns.config),
      container: 'elasticsearch',
      claim: {
        name: (pod: string) => `elasticsearch-data-${pod}`,
        size: dataClaimSize(ns.volumeClaimTemplates),
      },
    };
  });
  return {
    version,
    statefulSets,
    services: [
      {
        name: `${name}-es-http`,
        ports: [{ name: 'https', port: 9200 }],
        selector: clusterLabels,
      },
      {
        name: `${name}-es-internal-http`,
        ports: [{ name: 'https', port: 9200 }],
        selector: clusterLabels,
      },
      {
        name: `${name}-es-transport`,
        ports: [{ name: 'tls-transport', port: 9300 }],
        selector: clusterLabels,
        headless: true,
      },
      ...statefulSets.map(sts => ({
        name: sts.name,
        ports: [
          { name: 'https', port: 9200 },
          { name: 'transport', port: 9300 },
        ],
        selector: sts.labels,
        headless: true,
      })),
    ],
    secrets: [
      {
        name: `${name}-es-elastic-user`,
        labels: clusterLabels,
        data: () => ({ elastic: randomPassword() }),
      },
    ],
  };
}

const podNames = (s: StatefulSetState, from: number, to: number) =>
  Array.from(
    { length: Math.max(0, to - from) },
    (_, i) => `${s.name}-${from + i}`,
  );

/** inProgressOperations as ECK reports them; a timestamp moves only when its node list changes. */
function inProgressOperations(obs: Observation, previous: any) {
  const upscale = obs.sets
    .flatMap(s => podNames(s, s.pods, s.replicas))
    .map(name => ({ name, status: 'PENDING' }));
  const downscale = obs.sets
    .flatMap(s => podNames(s, s.replicas, s.pods))
    .map(name => ({ name, shutdownStatus: 'IN_PROGRESS' }));
  const upgrade = obs.sets
    .flatMap(s =>
      s.currentRevision === s.revision
        ? []
        : podNames(s, 0, s.pods - s.updated),
    )
    .map(name => ({ name, status: 'PENDING' }));
  const op = (key: string, nodes: unknown[]) => {
    const prev = previous?.[key];
    return {
      lastUpdatedTime:
        prev && deepEqual(prev.nodes, nodes) ? prev.lastUpdatedTime : obs.now,
      nodes,
    };
  };
  return {
    downscale: op('downscale', downscale),
    upgrade: op('upgrade', upgrade),
    upscale: op('upscale', upscale),
  };
}

function status(
  cr: StoredObject,
  _kind: CustomKind,
  obs: Observation,
): Record<string, unknown> | undefined {
  const previous = (cr.status as Record<string, any>) ?? {};
  if (obs.stage === 'deleting')
    return cr.status as Record<string, unknown> | undefined;
  // ECK 3.5 pause-orchestration: spec changes wait, the rest of the status stays as it was
  // (pkg/controller/common/pause.go); `managed: "false"` stops even that (status frozen)
  if (obs.paused) {
    if (!pausesOrchestration(cr)) return cr.status as Record<string, unknown> | undefined;
    return {
      ...previous,
      conditions: withCondition(
        previous.conditions,
        {
          type: 'OrchestrationPaused',
          status: 'True',
          message:
            'Orchestration paused via annotation; no pending spec changes detected',
        },
        obs.now,
      ),
    };
  }
  const ns = cr.metadata.namespace;
  const name = cr.metadata.name;
  const reachable = obs.readyReplicas > 0;
  const health = {
    ready: 'green',
    updating: 'green',
    degraded: 'yellow',
    failed: 'red',
    provisioning: reachable ? 'green' : 'unknown',
  }[obs.stage];
  const applying = obs.stage === 'provisioning' || obs.stage === 'updating';
  const pending = obs.sets.find(
    s =>
      s.pods !== s.replicas ||
      s.updated < s.pods ||
      s.currentRevision !== s.revision,
  );
  const conditions = [
    {
      type: 'ElasticsearchIsReachable',
      status: reachable ? ('True' as const) : ('False' as const),
      message: `Service ${ns}/${name}-es-internal-http ${reachable ? 'has endpoints' : 'has no endpoints'}`,
    },
    applying
      ? {
          type: 'ReconciliationComplete',
          status: 'False' as const,
          message: pending
            ? `StatefulSet ${pending.name} has some pending Pods operations`
            : 'Waiting for Elasticsearch nodes to be ready',
        }
      : { type: 'ReconciliationComplete', status: 'True' as const },
    ...(obs.runningVersion
      ? [
          obs.runningVersion === obs.desiredVersion
            ? {
                type: 'RunningDesiredVersion',
                status: 'True' as const,
                message: `All nodes are running version ${obs.runningVersion}`,
              }
            : {
                type: 'RunningDesiredVersion',
                status: 'False' as const,
                message: `Not all nodes are running version ${obs.desiredVersion}`,
              },
        ]
      : []),
    // once paused, the condition stays, False (MaybeResetPausedCondition)
    ...((previous.conditions ?? []).some((c: any) => c?.type === 'OrchestrationPaused')
      ? [
          {
            type: 'OrchestrationPaused',
            status: 'False' as const,
            message: 'Orchestration has resumed normally',
          },
        ]
      : []),
  ];
  return {
    availableNodes: obs.readyReplicas,
    health,
    phase: applying ? 'ApplyingChanges' : 'Ready',
    ...(obs.runningVersion ? { version: obs.runningVersion } : {}),
    conditions: nextConditions(previous.conditions, conditions, obs.now),
    inProgressOperations: inProgressOperations(
      obs,
      previous.inProgressOperations,
    ),
    observedGeneration: obs.generation,
  };
}

/**
 * Emulated ECK for Elasticsearch: StatefulSets `<n>-es-<nodeSet>`, Services `<n>-es-http`,
 * `<n>-es-internal-http`, `<n>-es-transport`, Secret `<n>-es-elastic-user` (key `elastic`).
 */
export const eckOperator: EmulatedOperator = {
  demo: eckDemo,
  id: 'eck',
  kinds: [ELASTICSEARCH_KIND],
  desired: cr => desired(cr),
  paused: cr => pausesOrchestration(cr) || unmanaged(cr),
  status,
  failedKeepsPods: true,
};

/** The size of the elasticsearch-data claim template (ECK's default 1Gi when there is none). */
function dataClaimSize(templates: unknown): string {
  const data = (Array.isArray(templates) ? templates : []).find(
    (t: any) => t?.metadata?.name === 'elasticsearch-data',
  );
  return data?.spec?.resources?.requests?.storage ?? '1Gi';
}
