import { parseAllDocuments } from 'yaml';

/** One rendered Kubernetes object, loosely typed: tests read what they assert on. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: any;
}

/** Parses a multi-document YAML stream, dropping empty documents; throws on any YAML error. */
export function parseManifests(text: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw doc.errors[0];
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    objects.push(value as K8sObject);
  }
  return objects;
}

/** The one object of `kind` (and `name`, when given); throws naming what exists otherwise. */
export function theObject(
  objects: K8sObject[],
  kind: string,
  name?: string,
): K8sObject {
  const found = objects.filter(
    o => o.kind === kind && (name === undefined || o.metadata.name === name),
  );
  if (found.length !== 1) {
    const have = objects.map(o => `${o.kind}/${o.metadata.name}`).join(', ');
    throw new Error(
      `expected one ${kind}${name ? `/${name}` : ''}, found ${found.length} among: ${have}`,
    );
  }
  return found[0];
}

/** `kind/namespace/name` of every object, sorted: what a comparison of two renderings looks at. */
export function identities(objects: K8sObject[]): string[] {
  return objects
    .map(o => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)
    .sort();
}

/**
 * The API versions and kinds the deployment may use: built-in Kubernetes (GA, served by 1.28+)
 * and cert-manager v1. Anything else is a typo or a removed version.
 */
export const KNOWN_KINDS: Record<string, string[]> = {
  v1: ['Namespace', 'ServiceAccount', 'Service', 'Secret', 'ConfigMap'],
  'apps/v1': ['Deployment'],
  'policy/v1': ['PodDisruptionBudget'],
  'rbac.authorization.k8s.io/v1': [
    'ClusterRole',
    'ClusterRoleBinding',
    'Role',
    'RoleBinding',
  ],
  'apiregistration.k8s.io/v1': ['APIService'],
  'cert-manager.io/v1': ['Issuer', 'Certificate'],
};

/** One RBAC rule, flattened so tests can ask "may X do V on R". */
export interface Grant {
  apiGroup: string;
  resource: string;
  verb: string;
}

/** Every (group, resource, verb) triple of a role's rules. */
export function grants(role: K8sObject): Grant[] {
  const out: Grant[] = [];
  for (const rule of role.rules ?? []) {
    for (const apiGroup of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs ?? [])
          out.push({ apiGroup, resource, verb });
      }
    }
  }
  return out;
}

/** Whether `role` grants `verb` on `group`/`resource`. */
export function allows(
  role: K8sObject,
  group: string,
  resource: string,
  verb: string,
): boolean {
  return grants(role).some(
    g =>
      g.apiGroup === group &&
      g.resource === resource &&
      (g.verb === verb || g.verb === '*'),
  );
}
