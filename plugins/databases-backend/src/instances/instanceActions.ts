import type { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  databasesBackupCreatePermission,
  databasesBackupDeletePermission,
  databasesInstanceConnectionReadPermission,
  databasesInstanceDeletePermission,
  databasesInstanceUpdatePermission,
  databasesScheduleUpdatePermission,
  type InstanceActions,
  type PortalInstance,
} from '@internal/plugin-databases-common';
import type { InstanceAuthorizer } from '../permissions/InstanceAuthorizer';
import type { DatabasesService } from '../service/DatabasesService';
import type { InstanceCaller } from './InstanceRequests';

type Verb = 'get' | 'create' | 'patch' | 'delete';

/** One action: the portal's permission and what the cluster must allow (on this instance, or in its namespace). */
interface ActionRule {
  permission: ResourcePermission<'databases-instance'>;
  verb: Verb;
  /** On the instance itself (optionally a subresource), or on any object of a resource of its namespace. */
  on: { instance: true; subresource?: 'connection' } | { resource: 'databasebackups' | 'databasebackupschedules' };
}

// backups and schedules: anything of the instance's namespace (a run's name is not known before it exists)
const RULES: Record<keyof InstanceActions, ActionRule> = {
  update: { permission: databasesInstanceUpdatePermission, verb: 'patch', on: { instance: true } },
  delete: { permission: databasesInstanceDeletePermission, verb: 'delete', on: { instance: true } },
  readConnection: { permission: databasesInstanceConnectionReadPermission, verb: 'get', on: { instance: true, subresource: 'connection' } },
  backUp: { permission: databasesBackupCreatePermission, verb: 'create', on: { resource: 'databasebackups' } },
  deleteBackups: { permission: databasesBackupDeletePermission, verb: 'delete', on: { resource: 'databasebackups' } },
  createSchedule: { permission: databasesScheduleUpdatePermission, verb: 'create', on: { resource: 'databasebackupschedules' } },
  updateSchedules: { permission: databasesScheduleUpdatePermission, verb: 'patch', on: { resource: 'databasebackupschedules' } },
  deleteSchedules: { permission: databasesScheduleUpdatePermission, verb: 'delete', on: { resource: 'databasebackupschedules' } },
};

/**
 * What the caller may do with an instance: an action is offered only when both the portal's
 * policy and the cluster's RBAC (a SelfSubjectAccessReview as the user) would let it through. The
 * cluster is asked only where the policy allows.
 */
export async function instanceActions(
  deps: { service: DatabasesService; authorizer: InstanceAuthorizer },
  who: InstanceCaller,
  resource: PortalInstance,
): Promise<InstanceActions> {
  const namespace = resource.instance.metadata.namespace ?? '';
  const name = resource.instance.metadata.name;
  // three schedule actions share one permission: the policy is asked once per permission
  const decisions = new Map<string, Promise<boolean>>();
  const policy = (permission: ActionRule['permission']) => {
    let decision = decisions.get(permission.name);
    if (!decision) {
      decision = deps.authorizer.allows(permission, who.credentials, resource);
      decisions.set(permission.name, decision);
    }
    return decision;
  };
  const allowed = async ({ permission, verb, on }: ActionRule) =>
    (await policy(permission)) &&
    deps.service.canRead(who.as, resource.cluster, namespace, verb, 'instance' in on ? { name, subresource: on.subresource } : { resource: on.resource });
  const entries = await Promise.all(Object.entries(RULES).map(async ([action, rule]) => [action, await allowed(rule)] as const));
  return Object.fromEntries(entries) as unknown as InstanceActions;
}
