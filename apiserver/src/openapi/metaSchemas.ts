/**
 * The `meta.k8s.io/v1` (and runtime) schemas our documents reference, under their upstream names so
 * kube-apiserver's OpenAPI aggregation merges them with its own instead of renaming duplicates.
 * Written by hand, faithful to upstream names, types and list/map markers; descriptions shortened.
 */
import type { Schema } from './types';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
/** `$ref` to a schema in this document (v3 form; v2 is rewritten from it). */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** A referenced sub-object the way kube's generator writes it (`allOf` + default). */
export const refField = (name: string, description: string, withDefault = true): Schema => ({
  description,
  ...(withDefault ? { default: {} } : {}),
  allOf: [ref(name)],
});

export const META_NAMES = {
  objectMeta: `${META}.ObjectMeta`,
  listMeta: `${META}.ListMeta`,
  time: `${META}.Time`,
  status: `${META}.Status`,
  watchEvent: `${META}.WatchEvent`,
  condition: `${META}.Condition`,
  deleteOptions: `${META}.DeleteOptions`,
  patch: `${META}.Patch`,
} as const;

const str = (description: string): Schema => ({ type: 'string', description });

export const metaSchemas: Record<string, Schema> = {
  [`${META}.Time`]: {
    type: 'string',
    format: 'date-time',
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON. Wrappers are provided for many of the factory methods that the time package offers.',
  },
  [`${META}.FieldsV1`]: {
    type: 'object',
    description:
      "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.",
  },
  [`${META}.ManagedFieldsEntry`]: {
    type: 'object',
    description:
      'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    properties: {
      apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
      fieldsType: str('FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"'),
      fieldsV1: refField(`${META}.FieldsV1`, 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.', false),
      manager: str('Manager is an identifier of the workflow managing these fields.'),
      operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
      subresource: str('Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.'),
      time: refField(`${META}.Time`, 'Time is the timestamp of when the ManagedFields entry was added.', false),
    },
  },
  [`${META}.OwnerReference`]: {
    type: 'object',
    description:
      'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: { type: 'string', default: '', description: 'API version of the referent.' },
      blockOwnerDeletion: { type: 'boolean', description: 'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.' },
      controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
      kind: { type: 'string', default: '', description: 'Kind of the referent.' },
      name: { type: 'string', default: '', description: 'Name of the referent.' },
      uid: { type: 'string', default: '', description: 'UID of the referent.' },
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${META}.ObjectMeta`]: {
    type: 'object',
    description:
      'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    properties: {
      annotations: {
        type: 'object',
        additionalProperties: { type: 'string', default: '' },
        description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects.',
      },
      creationTimestamp: refField(`${META}.Time`, 'CreationTimestamp is a timestamp representing the server time when this object was created. Clients may not set this value. It is represented in RFC3339 form and is in UTC. For a DatabaseInstance it is the operator object\'s.', false),
      deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set.' },
      deletionTimestamp: refField(`${META}.Time`, 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Set by the server when a graceful deletion is requested.', false),
      finalizers: {
        type: 'array',
        items: { type: 'string', default: '' },
        description: 'Must be empty before the object is deleted from the registry.',
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
      generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' },
      labels: {
        type: 'object',
        additionalProperties: { type: 'string', default: '' },
        description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
      },
      managedFields: {
        type: 'array',
        items: { default: {}, allOf: [ref(`${META}.ManagedFieldsEntry`)] },
        description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
        'x-kubernetes-list-type': 'atomic',
      },
      name: str('Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.'),
      namespace: str('Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace.'),
      ownerReferences: {
        type: 'array',
        items: { default: {}, allOf: [ref(`${META}.OwnerReference`)] },
        description: 'List of objects depended by this object.',
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      resourceVersion: str('An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only.'),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      uid: str('UID is the unique in time and space value for this object. Populated by the system. Read-only. For a DatabaseInstance it is the operator object\'s.'),
    },
  },
  [`${META}.ListMeta`]: {
    type: 'object',
    description:
      'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    properties: {
      continue: str('continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.'),
      remainingItemCount: { type: 'integer', format: 'int64', description: 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.' },
      resourceVersion: str("String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed."),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
    },
  },
  [`${META}.StatusCause`]: {
    type: 'object',
    description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
    properties: {
      field: str('The field of the resource that has caused this error, as named by its JSON serialization.'),
      message: str('A human-readable description of the cause of the error.'),
      reason: str('A machine-readable description of the cause of the error. If this value is empty there is no information available.'),
    },
  },
  [`${META}.StatusDetails`]: {
    type: 'object',
    description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
    properties: {
      causes: {
        type: 'array',
        items: { default: {}, allOf: [ref(`${META}.StatusCause`)] },
        description: 'The Causes array includes more details associated with the StatusReason failure.',
        'x-kubernetes-list-type': 'atomic',
      },
      group: str('The group attribute of the resource associated with the status StatusReason.'),
      kind: str('The kind attribute of the resource associated with the status StatusReason.'),
      name: str('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
      retryAfterSeconds: { type: 'integer', format: 'int32', description: 'If specified, the time in seconds before the operation should be retried.' },
      uid: str('UID of the resource. (when there is a single resource which can be described).'),
    },
  },
  [`${META}.Status`]: {
    type: 'object',
    description: 'Status is a return value for calls that don\'t return other objects.',
    properties: {
      apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
      code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code for this status, 0 if not set.' },
      details: refField(`${META}.StatusDetails`, 'Extended data associated with the reason.', false),
      kind: str('Kind is a string value representing the REST resource this object represents.'),
      message: str('A human-readable description of the status of this operation.'),
      metadata: refField(`${META}.ListMeta`, 'Standard list metadata.'),
      reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
      status: str('Status of the operation. One of: "Success" or "Failure".'),
    },
    'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    type: 'object',
    description: 'RawExtension is used to hold extensions in external versions.',
  },
  [`${META}.WatchEvent`]: {
    type: 'object',
    description: 'Event represents a single event to a watched resource.',
    required: ['type', 'object'],
    properties: {
      object: refField('io.k8s.apimachinery.pkg.runtime.RawExtension', 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.', false),
      type: { type: 'string', default: '', description: 'Type of the event: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.' },
    },
    'x-kubernetes-group-version-kind': [
      { group: '', kind: 'WatchEvent', version: 'v1' },
      { group: 'meta.k8s.io', kind: 'WatchEvent', version: 'v1' },
    ],
  },
  [`${META}.Condition`]: {
    type: 'object',
    description: 'Condition contains details for one aspect of the current state of this API Resource.',
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    properties: {
      lastTransitionTime: refField(`${META}.Time`, 'lastTransitionTime is the last time the condition transitioned from one status to another.', false),
      message: { type: 'string', default: '', description: 'message is a human readable message indicating details about the transition. This may be an empty string.' },
      observedGeneration: { type: 'integer', format: 'int64', description: 'observedGeneration represents the .metadata.generation that the condition was set based upon.' },
      reason: { type: 'string', default: '', description: "reason contains a programmatic identifier indicating the reason for the condition's last transition. CamelCase." },
      status: { type: 'string', default: '', description: 'status of the condition, one of True, False, Unknown.' },
      type: { type: 'string', default: '', description: 'type of condition in CamelCase.' },
    },
  },
  [`${META}.Preconditions`]: {
    type: 'object',
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    properties: {
      resourceVersion: str('Specifies the target ResourceVersion'),
      uid: str('Specifies the target UID.'),
    },
  },
  [`${META}.DeleteOptions`]: {
    type: 'object',
    description: 'DeleteOptions may be provided when deleting an API object.',
    properties: {
      apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
      dryRun: { type: 'array', items: { type: 'string', default: '' }, description: 'When present, indicates that modifications should not be persisted.', 'x-kubernetes-list-type': 'atomic' },
      gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'The duration in seconds before the object should be deleted.' },
      kind: str('Kind is a string value representing the REST resource this object represents.'),
      orphanDependents: { type: 'boolean', description: 'Deprecated: please use the PropagationPolicy.' },
      preconditions: refField(`${META}.Preconditions`, 'Must be fulfilled before a deletion is carried out.', false),
      propagationPolicy: str("Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'."),
    },
    'x-kubernetes-group-version-kind': [{ group: '', kind: 'DeleteOptions', version: 'v1' }],
  },
  [`${META}.Patch`]: {
    type: 'object',
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  },
};
