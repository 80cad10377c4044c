/** API group served by the aggregated apiserver. */
export const DATABASES_API_GROUP = 'dbaas.platform.dev';
/** The only served version. */
export const DATABASES_API_VERSION = 'v1alpha1';
/** `apiVersion` of every object of the group. */
export const DATABASES_GROUP_VERSION = `${DATABASES_API_GROUP}/${DATABASES_API_VERSION}`;

export const DATABASE_INSTANCE_KIND = 'DatabaseInstance';
export const DATABASE_INSTANCE_PLURAL = 'databaseinstances';
export const DATABASE_INSTANCE_SINGULAR = 'databaseinstance';
export const DATABASE_INSTANCE_SHORT_NAMES = ['dbi'];
export const DATABASE_ENGINE_KIND = 'DatabaseEngine';
export const DATABASE_ENGINE_PLURAL = 'databaseengines';
export const DATABASE_ENGINE_SINGULAR = 'databaseengine';
export const DATABASES_CATEGORY = 'databases';

/** Ties an instance to a Backstage catalog entity (Backstage's own convention). */
export const LABEL_BACKSTAGE_KUBERNETES_ID = 'backstage.io/kubernetes-id';
/** Who asked for the instance (set on create). */
export const LABEL_REQUESTED_BY = 'dbaas.platform.dev/requested-by';
/** The owning team as a Backstage entity ref, e.g. `group:default/team-a`. */
export const ANNOTATION_OWNER = 'dbaas.platform.dev/owner';
/** Marks operator objects created through this API. */
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'dbaas-apiserver';
/**
 * The full name of the user who asked for the instance (the label of the same key holds a
 * sanitised copy, since user names are not valid label values).
 */
export const ANNOTATION_REQUESTED_BY = 'dbaas.platform.dev/requested-by';
/**
 * Set to `"true"` on the operator object while the instance's `spec.deletionProtection` is
 * true; the projection reads it back. Delete is refused while it is set.
 */
export const ANNOTATION_DELETION_PROTECTION =
  'dbaas.platform.dev/deletion-protection';
/** kubectl's copy of the last applied manifest, which `kubectl apply` diffs against. */
export const ANNOTATION_KUBECTL_LAST_APPLIED =
  'kubectl.kubernetes.io/last-applied-configuration';
/**
 * kubectl's last-applied copy of the DatabaseInstance, kept on the operator object under a key
 * of our own: kubectl's own key there describes the operator object (when someone applies it
 * directly) and is no DatabaseInstance. The projection serves it back under kubectl's key.
 */
export const ANNOTATION_LAST_APPLIED =
  'dbaas.platform.dev/last-applied-configuration';
/**
 * Written by the apiserver on the operator object when it sees the instance Ready: the spec
 * (replicas, version, storage, resources, topology) that was Ready then. A spec that differs
 * from it is being rolled out (Updating, not Degraded), on every replica and after a restart.
 * Never taken from a client; not served on the DatabaseInstance.
 */
export const ANNOTATION_READY_SPEC = 'dbaas.platform.dev/ready-spec';
/**
 * Written by the apiserver on the operator object when it sees the restore the instance was
 * created from fail, with the operator's words: an operator may count a failed restore as done
 * and delete what said so (mariadb-operator), so the failure is kept where every replica, and
 * one restarted later, reads it. Never taken from a client; not served on the DatabaseInstance.
 */
export const ANNOTATION_RESTORE_FAILED = 'dbaas.platform.dev/restore-failed';
/**
 * The DatabaseInstance's `metadata.managedFields` (server-side apply's record of who set which
 * field), kept on the operator object as JSON: the apiserver stores nothing itself, and an
 * annotation survives restarts and is the same on every replica. Served back as
 * `metadata.managedFields`, never as an annotation; only the apiserver writes it.
 */
export const ANNOTATION_MANAGED_FIELDS = 'dbaas.platform.dev/managed-fields';
/**
 * Written by the apiserver on an operator object it creates from a DatabaseBackup the operator
 * cannot name by itself (a run of a mariadb-operator schedule: the MariaDB names the scheduled
 * Backup and the run's time), with that DatabaseBackup's name: read back as
 * `spec.restoreFrom.backup`. Never taken from a client; not served on the DatabaseInstance.
 */
export const ANNOTATION_RESTORED_BACKUP = 'dbaas.platform.dev/restored-backup';
/** The annotations only the apiserver writes on operator objects: its records, never a client's, never served as annotations. */
export const APISERVER_RECORDS: readonly string[] = [
  ANNOTATION_READY_SPEC,
  ANNOTATION_RESTORE_FAILED,
  ANNOTATION_MANAGED_FIELDS,
  ANNOTATION_RESTORED_BACKUP,
];
/** Kind of the object the `connection` subresource returns. */
export const DATABASE_INSTANCE_CONNECTION_KIND = 'DatabaseInstanceConnection';
/** Name of the subresource serving connection details (its own RBAC permission). */
export const DATABASE_INSTANCE_CONNECTION_SUBRESOURCE = 'connection';

/** Kind of the object the `diagnosis` subresource returns. */
export const DATABASE_INSTANCE_DIAGNOSIS_KIND = 'DatabaseInstanceDiagnosis';
/** Name of the subresource saying what is wrong with an instance (its own RBAC permission). */
export const DATABASE_INSTANCE_DIAGNOSIS_SUBRESOURCE = 'diagnosis';

/** Catalog entity annotation listing the instances of a component when no label ties them. */
export const ANNOTATION_DATABASES_SELECTOR = 'dbaas.platform.dev/selector';
/**
 * `"true"` on the Service Binding Secret the apiserver keeps for each instance (servicebinding.io's
 * Provisioned Service: `status.binding.name`), so that it watches only these Secrets for the
 * projection; with its owner reference to the operator object, it never takes over another.
 */
export const LABEL_BINDING = 'dbaas.platform.dev/binding';
/**
 * On the binding Secret: what it was built from (the operator Secret's resourceVersion and the
 * connection's endpoint), so a restarted replica rewrites only the Secrets that are out of date.
 */
export const ANNOTATION_BINDING_SOURCE = 'dbaas.platform.dev/binding-source';
