import { endpointsWithUris } from '../../writes/connectionEndpoints';
import type { EngineRules } from '../../writes/EngineRules';
import { replicaRulesOf } from '../../writes/replicaRule';
import { type FieldCause, forbidden } from '../../writes/FieldCause';
import { claimSpec } from '../../writes/claimSpec';
import { connectionDetails } from '../../writes/connectionDetails';
import { operatorObject } from '../../writes/operatorObject';
import { mergeResources, resourceRequirements } from '../../writes/resources';
import { secretValue } from '../../writes/secretValue';
import { rulesWriteSide } from '../../writes/rulesWriteSide';
import { markerPause } from '../../writes/pauseSwitch';
import { updateSide } from '../../writes/updateFrame';
import { compareVersions, majorOf } from '../../writes/version';
import { asArray, asRecord, nameOf, namespaceOf } from '../shared/read';
import type { AdapterWriteSide, SourceKind } from '../types';

const HTTP_PORT = 9200;
const NODE_SET = 'default';
const DATA_CLAIM = 'elasticsearch-data';
const CONTAINER = 'elasticsearch';
/** ECK's built-in superuser and the key of its Secret `<name>-es-elastic-user`. */
const ELASTIC_USER = 'elastic';

/** Elastic ECK's rules (docs/engines.md). */
export const eckRules: EngineRules = {
  engine: 'elasticsearch',
  operator: 'eck',
  topologies: ['cluster'],
  // ECK 3.x samples use 9.4.3; 8.x from 8.18 can still be upgraded to 9.
  versions: ['9.4.3', '8.19.0', '8.18.0'],
  runnableVersions: {
    min: '8.0.0',
    parts: 3,
    source:
      'ECK runs Elasticsearch 8 and 9 (7.x only with a deprecation warning) and its spec.version is a full major.minor.patch',
  },
  replicas: replicaRulesOf({
    cluster: {
      min: 1,
      message: 'an Elasticsearch cluster needs at least 1 node',
    },
  }),
  storageGrowth: true, // ECK expands data claims when the storage class allows expansion
  scaleDown: true,
};

/**
 * The oldest version each major can be upgraded from (Elasticsearch's upgrade paths, which
 * ECK enforces): 9.x only from 8.18 or later, 8.x only from 7.17 or later. Versions older
 * than these, 7.x to 9 included, need an intermediate upgrade first.
 */
const UPGRADE_FROM: Record<number, string> = { 9: '8.18.0', 8: '7.17.0' };

function upgradePathProblem(from: string, to: string): FieldCause | undefined {
  const oldest = UPGRADE_FROM[majorOf(to) ?? -1];
  if (oldest === undefined || compareVersions(from, oldest) >= 0)
    return undefined;
  const [major, minor] = oldest.split('.');
  return forbidden(
    'spec.version',
    `upgrading from ${from} to ${to} is not supported by eck: upgrade to ${major}.${minor} or later first`,
  );
}

const elasticUserSecret = (name: string) => `${name}-es-elastic-user`;

/**
 * ECK 3.5's pause-orchestration annotation: spec changes wait, certificates and health keep
 * going. A resume also lifts the older, deprecated `managed: "false"`.
 */
export const eckPause = markerPause(
  'annotations',
  'eck.k8s.elastic.co/pause-orchestration',
  'true',
  { 'eck.k8s.elastic.co/managed': 'false' },
);

/** The write side for Elasticsearch objects: one node set `default` holding every node. */
export function eckWriteSide(kind: SourceKind): AdapterWriteSide {
  return {
    ...rulesWriteSide(eckRules, 'cluster'),
    defaults: () => ({
      version: '9.4.3',
      replicas: 3,
      storage: { size: '10Gi' },
      // Elastic recommends equal memory request and limit for the JVM heap sizing.
      resources: {
        requests: { cpu: '500m', memory: '2Gi' },
        limits: { memory: '2Gi' },
      },
    }),
    // ECK's own webhook limit (MaxElasticsearchNameLength).
    maxNameLength: 36,
    kindFor: () => kind,
    toOperatorObject(instance, options) {
      const { spec } = instance;
      const resources = resourceRequirements(spec.resources);
      return operatorObject(kind, instance, options, {
        version: spec.version,
        nodeSets: [
          {
            name: NODE_SET,
            count: spec.replicas,
            // Works without raising vm.max_map_count on the nodes (ECK's quickstart advice).
            config: { 'node.store.allow_mmap': false },
            volumeClaimTemplates: [
              {
                metadata: { name: DATA_CLAIM },
                spec: claimSpec(spec.storage),
              },
            ],
            ...(resources && {
              podTemplate: {
                spec: { containers: [{ name: CONTAINER, resources }] },
              },
            }),
          },
        ],
      });
    },
    ...updateSide({
      rules: eckRules,
      pause: eckPause,
      refuse(current, next, previous) {
        const causes: FieldCause[] = [];
        const path =
          next.version && previous.version && next.version !== previous.version
            ? upgradePathProblem(previous.version, next.version)
            : undefined;
        if (path) causes.push(path);
        const sets = asArray(asRecord(current.spec)?.nodeSets).length;
        // Tiers (hot/warm, dedicated masters) stay the owner's business: with several node sets
        // a single count, size or resources cannot say which set to change.
        if (sets === 1) return causes;
        const changed: Array<[string, boolean]> = [
          ['spec.replicas', next.replicas !== previous.replicas],
          ['spec.storage.size', next.storage?.size !== previous.storage?.size],
          [
            'spec.resources',
            JSON.stringify(next.resources) !==
              JSON.stringify(previous.resources),
          ],
        ];
        for (const [field, differs] of changed)
          if (differs)
            causes.push(
              forbidden(
                field,
                `the Elasticsearch object has ${sets} node sets; change them in the Elasticsearch object itself`,
              ),
            );
        return causes;
      },
      write(spec, change) {
        if (change.version) spec.version = change.version;
        const nodeSets = asArray(spec.nodeSets).map(n => asRecord(n) ?? {});
        // With several node sets only the version (and deletion protection) got this far; the
        // count, size and resources of each set stay as they are.
        if (nodeSets.length !== 1) return;
        const [nodeSet] = nodeSets;
        if (change.replicas !== undefined) nodeSet.count = change.replicas;
        if (change.storageSize) setDataClaimSize(nodeSet, change.storageSize);
        setResources(nodeSet, change.resources);
        spec.nodeSets = nodeSets;
      },
    }),
    // ECK generates the elastic user's password itself.
    secretsToCreate: () => [],
    connectionSecretName: source => elasticUserSecret(nameOf(source)),
    connection(instance, source, secret) {
      const name = nameOf(source);
      const password = secretValue(secret, ELASTIC_USER);
      const { primary, endpoints } = endpointsWithUris(
        instance,
        {
          name: 'http',
          host: `${name}-es-http.${namespaceOf(source)}.svc`,
          port: HTTP_PORT,
        },
        // ECK serves HTTP over TLS by default (self-signed CA in `<name>-es-http-certs-public`).
        () => ({ scheme: 'https', username: ELASTIC_USER, password }),
        'http',
      );
      return connectionDetails(primary, endpoints, {
        username: ELASTIC_USER,
        password,
        secretName: elasticUserSecret(name),
      });
    },
  };
}

function setDataClaimSize(nodeSet: Record<string, any>, size: string) {
  const claims = asArray(nodeSet.volumeClaimTemplates).map(
    c => asRecord(c) ?? {},
  );
  let data = claims.find(c => asRecord(c.metadata)?.name === DATA_CLAIM);
  if (!data) {
    data = {
      metadata: { name: DATA_CLAIM },
      spec: { accessModes: ['ReadWriteOnce'] },
    };
    claims.push(data);
  }
  const claim = (data.spec = asRecord(data.spec) ?? {});
  const resources = (claim.resources = asRecord(claim.resources) ?? {});
  resources.requests = { ...asRecord(resources.requests), storage: size };
  nodeSet.volumeClaimTemplates = claims;
}

/** Resources live in the nodeSet shorthand when the object uses it, else in the pod template. */
function setResources(
  nodeSet: Record<string, any>,
  next: Parameters<typeof mergeResources>[1],
) {
  if (asRecord(nodeSet.resources)) {
    const merged = mergeResources(nodeSet.resources, next);
    if (merged) nodeSet.resources = merged;
    else delete nodeSet.resources;
    return;
  }
  if (!next && !asRecord(nodeSet.podTemplate)) return;
  const podTemplate = (nodeSet.podTemplate =
    asRecord(nodeSet.podTemplate) ?? {});
  const podSpec = (podTemplate.spec = asRecord(podTemplate.spec) ?? {});
  const containers = (podSpec.containers = asArray(podSpec.containers));
  let container = containers
    .map(c => asRecord(c))
    .find(c => c?.name === CONTAINER);
  if (!container) {
    container = { name: CONTAINER };
    containers.push(container);
  }
  const merged = mergeResources(container.resources, next);
  if (merged) container.resources = merged;
  else delete container.resources;
}
