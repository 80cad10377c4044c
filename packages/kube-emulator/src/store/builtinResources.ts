import type { ResourceDefinition } from './types';

const core = (
  plural: string,
  kind: string,
  singular: string,
  namespaced: boolean,
  shortNames?: string[],
): ResourceDefinition => ({
  group: '',
  version: 'v1',
  plural,
  kind,
  listKind: `${kind}List`,
  singular,
  namespaced,
  statusSubresource: false,
  ...(shortNames ? { shortNames } : {}),
});

/** The CustomResourceDefinition resource itself: writing its objects defines served resources. */
export const CRD_RESOURCE: ResourceDefinition = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  statusSubresource: true,
};

/** The Namespace resource (cluster-scoped; namespaced objects need their namespace to exist). */
export const NAMESPACE_RESOURCE: ResourceDefinition = {
  ...core('namespaces', 'Namespace', 'namespace', false, ['ns']),
  statusSubresource: true,
};

const rbac = (
  plural: string,
  kind: string,
  namespaced: boolean,
): ResourceDefinition => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural,
  kind,
  listKind: `${kind}List`,
  singular: kind.toLowerCase(),
  namespaced,
  statusSubresource: false,
});

/**
 * RBAC's objects, served like any other kind (`kubectl get clusterroles`, `kubectl create
 * rolebinding`); the authorizer reads them (src/rbac) and validates them on write
 * (store/validateRbacObject.ts).
 */
export const RBAC_RESOURCE_DEFINITIONS: readonly ResourceDefinition[] = [
  rbac('clusterroles', 'ClusterRole', false),
  rbac('clusterrolebindings', 'ClusterRoleBinding', false),
  rbac('roles', 'Role', true),
  rbac('rolebindings', 'RoleBinding', true),
];

/** Kinds the emulator serves without any CRD. */
export const BUILTIN_RESOURCES: readonly ResourceDefinition[] = [
  NAMESPACE_RESOURCE,
  core('secrets', 'Secret', 'secret', true),
  core('configmaps', 'ConfigMap', 'configmap', true, ['cm']),
  {
    ...core('services', 'Service', 'service', true, ['svc']),
    categories: ['all'],
    statusSubresource: true,
  },
  core('events', 'Event', 'event', true, ['ev']),
  {
    ...core('pods', 'Pod', 'pod', true, ['po']),
    categories: ['all'],
    statusSubresource: true,
  },
  {
    ...core('persistentvolumeclaims', 'PersistentVolumeClaim', 'persistentvolumeclaim', true, ['pvc']),
    statusSubresource: true,
  },
  core('serviceaccounts', 'ServiceAccount', 'serviceaccount', true, ['sa']),
  {
    group: 'apps',
    version: 'v1',
    plural: 'statefulsets',
    kind: 'StatefulSet',
    listKind: 'StatefulSetList',
    singular: 'statefulset',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    statusSubresource: true,
  },
  {
    group: 'apps',
    version: 'v1',
    plural: 'deployments',
    kind: 'Deployment',
    listKind: 'DeploymentList',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    statusSubresource: true,
  },
  // batch/v1 as kube-apiserver serves it (pkg/registry/batch/{job,cronjob}/storage): the emulated
  // operators' backup runs are Jobs, and mariadb-operator's scheduled Backups CronJobs.
  {
    group: 'batch',
    version: 'v1',
    plural: 'jobs',
    kind: 'Job',
    listKind: 'JobList',
    singular: 'job',
    namespaced: true,
    categories: ['all'],
    statusSubresource: true,
  },
  {
    group: 'batch',
    version: 'v1',
    plural: 'cronjobs',
    kind: 'CronJob',
    listKind: 'CronJobList',
    singular: 'cronjob',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    statusSubresource: true,
  },
  // the control plane's leader leases (controlPlaneLeases.ts), as every cluster has them
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    plural: 'leases',
    kind: 'Lease',
    listKind: 'LeaseList',
    singular: 'lease',
    namespaced: true,
    statusSubresource: false,
  },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    plural: 'apiservices',
    kind: 'APIService',
    listKind: 'APIServiceList',
    singular: 'apiservice',
    namespaced: false,
    statusSubresource: true,
  },
  ...RBAC_RESOURCE_DEFINITIONS,
  CRD_RESOURCE,
];

/** Namespaces every cluster starts with. */
export const INITIAL_NAMESPACES = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
];
