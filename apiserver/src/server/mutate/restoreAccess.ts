import {
  DATABASE_BACKUP_PLURAL,
  DATABASES_API_GROUP,
  DATABASES_API_VERSION,
  DATABASES_GROUP_VERSION,
} from '@internal/plugin-databases-common';
import type { RequestInfo, UserInfo } from '../../auth/types';
import { forbidden, internalError, StatusError } from '../StatusError';
import type { WriteDeps } from './WriteDeps';

/**
 * A restore reads the backup: besides `create` on databaseinstances the user needs `get` on the
 * DatabaseBackup (issue 22), asked through the apiserver's authorizer as for any request, and
 * before the backup is looked at, so a refusal says nothing about it. 403 naming the backup.
 */
export async function checkRestoreAccess(deps: WriteDeps, user: UserInfo, namespace: string, backup: unknown): Promise<void> {
  if (typeof backup !== 'string' || !backup || !deps.authorizer) return;
  // system:masters is never asked about, as in kube-apiserver
  if (user.groups.includes('system:masters')) return;
  const info: RequestInfo = {
    isResourceRequest: true,
    path: `/apis/${DATABASES_GROUP_VERSION}/namespaces/${namespace}/${DATABASE_BACKUP_PLURAL}/${backup}`,
    verb: 'get',
    apiGroup: DATABASES_API_GROUP,
    apiVersion: DATABASES_API_VERSION,
    namespace,
    resource: DATABASE_BACKUP_PLURAL,
    subresource: '',
    name: backup,
    parts: [DATABASE_BACKUP_PLURAL, backup],
  };
  let decision;
  try {
    decision = await deps.authorizer.authorize(user, info);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw internalError(`authorization check failed: ${(e as Error)?.message ?? e}`);
  }
  if (!decision.allowed) {
    const reason = ['restoring from a backup needs get on it', decision.reason].filter(Boolean).join('; ');
    throw forbidden({ ...info, user: user.username, reason });
  }
}
