import type { Request } from 'express';
import type Router from 'express-promise-router';
import { z } from 'zod/v3';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import {
  databasesBackupCreatePermission,
  databasesBackupDeletePermission,
  type DeleteBackupResponse,
  type PortalBackup,
  type PortalInstance,
  type RequestRecord,
} from '@internal/plugin-databases-common';
import type { DatabasesService } from '../service/DatabasesService';
import { KubeRequestError } from '../kube/KubeRequestError';
import type { InstanceCaller } from '../instances/InstanceRequests';
import { dnsLabel, instanceParams, parse } from '../requestSchemas';
import { backupName } from './backupName';
import { serveLiveList, type LiveListDeps } from '../events/serveLiveList';

/** What the backup routes (and the schedule routes) take from the router. */
export interface BackupRoutesOptions extends LiveListDeps {
  /** The instance of the path, read as the user (their 403 or 404 if they may not), and who asks. */
  readInstance(
    req: Request,
    beside?: (p: z.infer<typeof instanceParams>, who: InstanceCaller) => void,
  ): Promise<{ p: z.infer<typeof instanceParams>; who: InstanceCaller; resource: PortalInstance }>;
  /** Runs a write, recorded in the instance's history and audited (not a dry run). */
  write<T>(
    req: Request,
    action: RequestRecord['action'],
    key: { cluster: string; namespace: string; name: string },
    actor: string,
    request: unknown,
    fn: () => Promise<T>,
    dryRun?: boolean,
    answered?: number,
  ): Promise<T>;
  service: DatabasesService;
}

const backupParams = instanceParams.extend({ backup: dnsLabel });

const createBody = z
  .object({
    // the operator's words (CloudNativePG: barmanObjectStore, volumeSnapshot, plugin); the apiserver decides
    method: z.string().min(1).max(63).regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a method name').optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

/**
 * The backups of one instance, under its path: list (live with `Accept: text/event-stream`),
 * back up now, delete one. Everything is asked of the cluster as the user (their RBAC on
 * databasebackups applies), never served from a cache of the backend's; the Backstage policy
 * decides too: `databases.instance.read` to see them, `databases.backup.create` and
 * `databases.backup.delete` (on the instance, so its owner rules apply) to change them.
 */
export function addBackupRoutes(router: ReturnType<typeof Router>, options: BackupRoutesOptions): void {
  const { readInstance, write, service, authorizer } = options;
  const base = '/clusters/:cluster/namespaces/:namespace/instances/:name/backups';

  router.get(base, (req, res) =>
    serveLiveList(req, res, options, {
      watch: (p, who) => service.instanceBackups(who.as, p.cluster, p.namespace, p.name),
      frames: { list: 'backups', change: 'backup' },
      independent: true,
    }),
  );

  router.post(base, async (req, res) => {
    // no body at all is "back up now"; a body that is not JSON was not read, and must not count as none
    if (req.is('application/json') === false) throw new InputError('invalid body: it must be JSON (Content-Type: application/json)');
    const body = parse(createBody, req.body ?? {}, 'body');
    const { p, who, resource } = await readInstance(req);
    const at = new Date();
    const name = backupName(p.name, at);
    const dryRun = body.dryRun ?? false;
    const backup = await write(
      req,
      'backup',
      p,
      who.actor,
      { backup: name, ...(body.method ? { method: body.method } : {}) },
      async () => {
        if (!(await authorizer.allows(databasesBackupCreatePermission, who.credentials, resource))) {
          throw new NotAllowedError(`not allowed to back up ${p.name}`);
        }
        const spec = { instance: p.name, method: body.method };
        try {
          return await service.createBackup(who.as, p.cluster, p.namespace, { name, ...spec }, dryRun);
        } catch (e) {
          // a second backup in the same second: the same name with the apiserver's random suffix
          if (!(e instanceof KubeRequestError && e.statusCode === 409 && e.status?.reason === 'AlreadyExists')) throw e;
          return service.createBackup(who.as, p.cluster, p.namespace, { generateName: backupName(p.name, at, { asPrefix: true }), ...spec }, dryRun);
        }
      },
      dryRun,
      201,
    );
    const answer: PortalBackup = { cluster: p.cluster, backup };
    res.status(dryRun ? 200 : 201).json(answer);
  });

  router.delete(`${base}/:backup`, async (req, res) => {
    const { backup: name } = parse(backupParams, req.params, 'path');
    const { p, who, resource } = await readInstance(req);
    const warnings = await write(req, 'delete-backup', p, who.actor, { backup: name }, async () => {
      if (!(await authorizer.allows(databasesBackupDeletePermission, who.credentials, resource))) {
        throw new NotAllowedError(`not allowed to delete backups of ${p.name}`);
      }
      // this path deletes this instance's backups only: another's is not found here
      const found = await service.getBackup(who.as, p.cluster, p.namespace, name);
      if (found.spec?.instanceRef?.name !== p.name) throw new NotFoundError(`${name} is not a backup of ${p.name}`);
      return service.deleteBackup(who.as, p.cluster, p.namespace, name);
    });
    const answer: DeleteBackupResponse = { cluster: p.cluster, namespace: p.namespace, name, warnings };
    res.json(answer);
  });
}
