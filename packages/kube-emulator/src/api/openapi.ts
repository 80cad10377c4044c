import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../store/types';

const gvPath = (group: string, version: string) =>
  group ? `apis/${group}/${version}` : `api/${version}`;

const queryParam = (name: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', uniqueItems: true },
});

/**
 * A minimal OpenAPI v3 document for one group/version: one PATCH operation per resource with its
 * `x-kubernetes-group-version-kind` and the `dryRun`/`fieldManager`/`fieldValidation` parameters.
 * kubectl reads exactly this to decide that the server validates fields itself
 * (cli-runtime QueryParamVerifierV3); without it kubectl falls back to /openapi/v2 and fails.
 * Schemas are not published (no `kubectl explain`), and strategic merge patch is not advertised.
 */
export function openapiV3Document(
  resources: ResourceDefinition[],
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const here = resources.filter(
    r => r.group === group && r.version === version,
  );
  if (here.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const r of here) {
    const base = `/${gvPath(group, version)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.plural}/{name}`;
    paths[base] = {
      patch: {
        operationId: `patch${r.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group, version, kind: r.kind },
        parameters: [
          queryParam(
            'dryRun',
            'When present, indicates that modifications should not be persisted.',
          ),
          queryParam(
            'fieldManager',
            'fieldManager is a name associated with the actor or entity that is making these changes.',
          ),
          queryParam(
            'fieldValidation',
            'Ignore, Warn (default) or Strict handling of unknown fields.',
          ),
        ],
        requestBody: {
          content: {
            'application/json-patch+json': { schema: { type: 'object' } },
            'application/merge-patch+json': { schema: { type: 'object' } },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.33.0' },
    paths,
    components: { schemas: {} },
  };
}

/** The `/openapi/v3` index entries of every served group/version, with content hashes as kube does. */
export function openapiV3Index(
  resources: ResourceDefinition[],
): Record<string, { serverRelativeURL: string }> {
  const out: Record<string, { serverRelativeURL: string }> = {};
  const gvs = new Set(resources.map(r => `${r.group}|${r.version}`));
  for (const gv of [...gvs].sort()) {
    const [group, version] = gv.split('|');
    const doc = openapiV3Document(resources, group, version);
    const hash = createHash('sha512')
      .update(JSON.stringify(doc))
      .digest('hex')
      .toUpperCase();
    out[gvPath(group, version)] = {
      serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}`,
    };
  }
  return out;
}
