import type { Request } from 'express';
import type Router from 'express-promise-router';
import { z } from 'zod/v3';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import {
  databasesScheduleUpdatePermission,
  type DatabaseBackupSchedule,
  type DeleteScheduleResponse,
  type PortalSchedule,
} from '@internal/plugin-databases-common';
import type { BackupRoutesOptions } from '../backups/addBackupRoutes';
import { KubeRequestError } from '../kube/KubeRequestError';
import { serveLiveList } from '../events/serveLiveList';
import { dnsLabel, instanceParams, parse } from '../requestSchemas';
import { createSchedule, deleteSchedule, getSchedule, updateSchedule, type ScheduleTarget } from './scheduleRequests';
import { scheduleName } from './scheduleName';
import { SchedulesWatch } from './SchedulesWatch';

const scheduleParams = instanceParams.extend({ schedule: dnsLabel });

// Shapes and sizes only: what a cron, a retention or a method means is the apiserver's to say
// (per operator), and its 422 names the field.
const cron = z.string().min(1).max(128);
const retention = z.string().min(1).max(32);

const createBody = z
  .object({
    schedule: cron,
    suspend: z.boolean().optional(),
    retention: retention.optional(),
    method: z.string().min(1).max(63).regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a method name').optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

const updateBody = z
  .object({
    schedule: cron.optional(),
    suspend: z.boolean().optional(),
    retention: retention.nullable().optional(),
    /** The version the caller read: a schedule changed meanwhile is a 409, not overwritten. */
    resourceVersion: z.string().min(1).max(64).optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine(b => b.schedule !== undefined || b.suspend !== undefined || b.retention !== undefined, {
    message: 'nothing to change: give schedule, suspend or retention',
  });

const isAlreadyExists = (e: unknown) => e instanceof KubeRequestError && e.statusCode === 409 && e.status?.reason === 'AlreadyExists';

/**
 * The backup schedules of one instance, under its path: list (live with `Accept:
 * text/event-stream`), add one, change one (cron, suspend, retention), delete one. Asked of the
 * cluster as the user (their RBAC on databasebackupschedules applies: only dbaas-admin writes
 * them in the chart's roles), never from a cache of the backend's; the Backstage policy decides
 * too: `databases.instance.read` to see them, `databases.schedule.update` (on the instance) to
 * change them. Every write is recorded in the instance's history and audited.
 */
export function addScheduleRoutes(router: ReturnType<typeof Router>, options: BackupRoutesOptions): void {
  const { readInstance, write, service, authorizer } = options;
  const base = '/clusters/:cluster/namespaces/:namespace/instances/:name/schedules';

  /** The instance of the path, and the caller allowed to change its schedules (else a 403). */
  async function writer(req: Request) {
    const read = await readInstance(req);
    const target: ScheduleTarget = { client: service.client(read.p.cluster), namespace: read.p.namespace, as: read.who.as };
    const authorize = async () => {
      if (!(await authorizer.allows(databasesScheduleUpdatePermission, read.who.credentials, read.resource))) {
        throw new NotAllowedError(`not allowed to change the backup schedules of ${read.p.name}`);
      }
    };
    return { ...read, target, authorize };
  }

  /** This instance's schedule `name` (another instance's is not found on this path). */
  async function ownSchedule(target: ScheduleTarget, instance: string, name: string): Promise<DatabaseBackupSchedule> {
    const found = await getSchedule(target, name);
    if (found.spec?.instanceRef?.name !== instance) throw new NotFoundError(`${name} is not a backup schedule of ${instance}`);
    return found;
  }

  router.get(base, (req, res) =>
    serveLiveList(req, res, options, {
      watch: (p, who) => new SchedulesWatch(service.client(p.cluster), who.as, { namespace: p.namespace, instance: p.name }),
      frames: { list: 'schedules', change: 'schedule' },
      independent: true,
    }),
  );

  router.post(base, async (req, res) => {
    if (req.is('application/json') !== 'application/json') throw new InputError('invalid body: it must be JSON (Content-Type: application/json)');
    const body = parse(createBody, req.body, 'body');
    const { p, who, target, authorize } = await writer(req);
    const dryRun = body.dryRun ?? false;
    const { dryRun: _dry, ...request } = body;
    const schedule = await write(
      req,
      'schedule',
      p,
      who.actor,
      request,
      async () => {
        await authorize();
        try {
          return await createSchedule(target, { name: scheduleName(p.name) }, p.name, body);
        } catch (e) {
          // the instance has a schedule of that name already: a second one gets the apiserver's suffix
          if (!isAlreadyExists(e)) throw e;
          return createSchedule(target, { generateName: scheduleName(p.name, { asPrefix: true }) }, p.name, body);
        }
      },
      dryRun,
      201,
    );
    const answer: PortalSchedule = { cluster: p.cluster, schedule };
    res.status(dryRun ? 200 : 201).json(answer);
  });

  router.patch(`${base}/:schedule`, async (req, res) => {
    const { schedule: name } = parse(scheduleParams, req.params, 'path');
    if (req.is('application/json') !== 'application/json') throw new InputError('invalid body: it must be JSON (Content-Type: application/json)');
    const body = parse(updateBody, req.body, 'body');
    const { p, who, target, authorize } = await writer(req);
    const { dryRun, resourceVersion: _read, ...change } = body;
    const schedule = await write(
      req,
      'update-schedule',
      p,
      who.actor,
      { schedule: name, ...change },
      async () => {
        await authorize();
        await ownSchedule(target, p.name, name);
        return updateSchedule(target, name, body);
      },
      dryRun,
    );
    const answer: PortalSchedule = { cluster: p.cluster, schedule };
    res.json(answer);
  });

  router.delete(`${base}/:schedule`, async (req, res) => {
    const { schedule: name } = parse(scheduleParams, req.params, 'path');
    const { p, who, target, authorize } = await writer(req);
    const warnings = await write(req, 'delete-schedule', p, who.actor, { schedule: name }, async () => {
      await authorize();
      await ownSchedule(target, p.name, name);
      return deleteSchedule(target, name);
    });
    const answer: DeleteScheduleResponse = { cluster: p.cluster, namespace: p.namespace, name, warnings };
    res.json(answer);
  });
}
