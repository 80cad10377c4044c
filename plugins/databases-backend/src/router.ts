import express, { type Request } from 'express';
import Router from 'express-promise-router';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import type {
  AuditorService,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import type { EntityReader } from './catalog/EntityReader';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import {
  LABEL_BACKSTAGE_KUBERNETES_ID,
  ANNOTATION_DATABASES_SELECTOR,
  databasesInstanceConnectionReadPermission,
  databasesInstanceDeletePermission,
  databasesInstanceReadPermission,
  databasesInstanceUpdatePermission,
  type EntityInstancesResponse,
  type GetInstanceResponse,
  type ListClustersResponse,
  type ListEnginesResponse,
  type ListInstancesResponse,
  type PortalInstance,
  type RequestRecord,
} from '@internal/plugin-databases-common';
import type { ClusterSet } from './watch/ClusterSet';
import { DatabasesService } from './service/DatabasesService';
import { toBackstageError } from './service/toBackstageError';
import { decodeCursor, queryInstances } from './service/queryInstances';
import type { ImpersonationOptions } from './kube/impersonationFor';
import type { InstanceAuthorizer } from './permissions/InstanceAuthorizer';
import { InstanceRequests, type InstanceCaller } from './instances/InstanceRequests';
import type { HistoryStore } from './history/HistoryStore';
import type { EventsHub } from './events/EventsHub';
import { serveLiveList } from './events/serveLiveList';
import { recordedWrite } from './instances/recordedWrite';
import { instanceActions } from './instances/instanceActions';
import { clusterParams, instanceParams, namespaceParams, parse } from './requestSchemas';
import { createBody, entityParams, entityQuery, listQuery, updateBody } from './instanceSchemas';
import { addBackupRoutes } from './backups/addBackupRoutes';
import { addScheduleRoutes } from './schedules/addScheduleRoutes';
import { addReadyRoute } from './instances/addReadyRoute';

/** Live event streams of single instances one backend keeps open (each is a watch as its user). */
const MAX_EVENT_STREAMS = 1000;

/** What the router needs. */
export interface RouterOptions {
  logger: LoggerService;
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  auditor: AuditorService;
  catalog: CatalogService;
  /** Entities as each user may read them (the entity routes' selectors). */
  entities: EntityReader;
  clusters: ClusterSet;
  service: DatabasesService;
  authorizer: InstanceAuthorizer;
  history: HistoryStore;
  events: EventsHub;
  impersonation: ImpersonationOptions;
}

/** Builds the express router of `/api/databases`. */
export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const { httpAuth, userInfo, auditor, catalog, entities, clusters, service, authorizer, history, events } = options;
  const eventStreams = { open: 0 };
  const router = Router();
  router.use(express.json({ limit: '100kb' }));

  // what the routes about one instance share: the caller, the create, the wait
  const instances = new InstanceRequests({ clusters, service, authorizer, userInfo, catalog, impersonation: options.impersonation });

  async function caller(req: Request): Promise<InstanceCaller> {
    return instances.caller(await httpAuth.credentials(req, { allow: ['user'] }));
  }

  /** Label selector of a catalog entity's instances. */
  async function selectorFor(ref: string, credentials: BackstageCredentials): Promise<string> {
    // by ref: the catalog reads one row by its key (by-name filters through its search table)
    const entity = await entities.read(ref, credentials, ['kind', 'metadata.name', 'metadata.namespace', 'metadata.annotations']);
    if (!entity) throw new NotFoundError(`entity ${ref} not found in the catalog`);
    const annotations = entity.metadata.annotations ?? {};
    return (
      annotations[ANNOTATION_DATABASES_SELECTOR] ??
      annotations['backstage.io/kubernetes-label-selector'] ??
      `${LABEL_BACKSTAGE_KUBERNETES_ID}=${annotations[LABEL_BACKSTAGE_KUBERNETES_ID] ?? entity.metadata.name}`
    );
  }

  /**
   * The instance of the path, read as the user, and who asks. `beside` starts once who asks is
   * known and runs during the read (a list that needs nothing of the instance); its outcome is
   * the caller's to use only after the read and the policy allowed it.
   */
  async function readInstance(req: Request, beside?: (p: { cluster: string; namespace: string; name: string }, who: InstanceCaller) => void) {
    const p = parse(instanceParams, req.params, 'path');
    const who = await caller(req);
    service.client(p.cluster);
    beside?.(p, who);
    try {
      const instance = await service.getInstance(who.as, p.cluster, p.namespace, p.name);
      return { p, who, resource: { cluster: p.cluster, instance } as PortalInstance };
    } catch (e) {
      throw toBackstageError(e);
    }
  }

  /**
   * Runs a write, records it in the history and the audit log. A dry run is a preview that
   * changes nothing: it is neither history nor audited.
   */
  function write<T>(
    req: Request,
    action: RequestRecord['action'],
    key: { cluster: string; namespace: string; name: string },
    actor: string,
    request: unknown,
    fn: () => Promise<T>,
    dryRun = false,
    answered?: number,
  ): Promise<T> {
    return recordedWrite(
      { auditor, history: { record: entry => history.recordRequest(entry).then(() => undefined) } },
      { action, key, actor, request, dryRun, answered, httpRequest: req },
      fn,
    );
  }

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/clusters', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const body: ListClustersResponse = {
      items: clusters.config.clusters.map(c => {
        const h = clusters.watcher(c.name)!.health();
        return { name: c.name, ...(c.title ? { title: c.title } : {}), healthy: h.healthy, ...(h.message ? { message: h.message } : {}) };
      }),
    };
    res.json(body);
  });

  router.get('/instances', async (req, res) => {
    const query = parse(listQuery, req.query, 'query');
    const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
    if (offset === undefined) throw new InputError('invalid query: cursor is not one this API returned');
    const who = await caller(req);
    if (query.cluster) service.client(query.cluster);
    const labelSelector = query.entity ? await selectorFor(query.entity, who.credentials) : undefined;
    const [found, permitted] = await Promise.all([
      service.listInstances(who.as, {
        clusters: query.cluster ? [query.cluster] : undefined,
        namespace: query.namespace,
        labelSelector,
      }),
      authorizer.predicate(databasesInstanceReadPermission, who.credentials),
    ]);
    const page = queryInstances(found.items.filter(permitted), query as any, offset);
    const body: ListInstancesResponse = { ...page, errors: found.errors };
    res.json(body);
  });

  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name', async (req, res) => {
    const { who, resource } = await readInstance(req);
    if (!(await authorizer.allows(databasesInstanceReadPermission, who.credentials, resource))) {
      throw new NotAllowedError(`not allowed to read ${resource.instance.metadata.name}`);
    }
    const body: GetInstanceResponse = { ...resource, actions: await instanceActions({ service, authorizer }, who, resource) };
    res.json(body);
  });

  router.get('/clusters/:cluster/engines', async (req, res) => {
    const { cluster } = parse(clusterParams, req.params, 'path');
    const who = await caller(req);
    service.client(cluster);
    try {
      const body: ListEnginesResponse = { cluster, items: await service.listEngines(who.as, cluster) };
      res.json(body);
    } catch (e) {
      throw toBackstageError(e);
    }
  });

  router.post('/clusters/:cluster/namespaces/:namespace/instances', async (req, res) => {
    const p = parse(namespaceParams, req.params, 'path');
    const body = parse(createBody, req.body, 'body');
    const who = await caller(req);
    const plan = await instances.planCreate(who, {
      cluster: p.cluster,
      namespace: p.namespace,
      name: body.name,
      owner: body.owner,
      entityRef: body.entityRef,
      entityMayBeNew: body.entityMayBeNew,
      spec: body.spec as any,
    });
    const key = { cluster: p.cluster, namespace: p.namespace, name: body.name };
    const created = await write(req, 'create', key, who.actor, body, () => instances.create(who, plan, body.dryRun ?? false), body.dryRun);
    res.status(body.dryRun ? 200 : 201).json({ cluster: p.cluster, instance: created } as PortalInstance);
  });

  router.patch('/clusters/:cluster/namespaces/:namespace/instances/:name', async (req, res) => {
    const body = parse(updateBody, req.body, 'body');
    const { p, who, resource } = await readInstance(req);
    const spec: Record<string, unknown> = {};
    if (body.version !== undefined) spec.version = body.version;
    if (body.replicas !== undefined) spec.replicas = body.replicas;
    if (body.storage?.size !== undefined) spec.storage = { size: body.storage.size };
    if (body.resources !== undefined) spec.resources = body.resources;
    if (body.deletionProtection !== undefined) spec.deletionProtection = body.deletionProtection;
    if (body.paused !== undefined) spec.paused = body.paused;
    if (body.primary !== undefined) spec.primary = body.primary;
    const patch: Record<string, unknown> = { spec };
    if (body.resourceVersion) patch.metadata = { resourceVersion: body.resourceVersion };
    const updated = await write(req, 'update', p, who.actor, body, async () => {
      if (!(await authorizer.allows(databasesInstanceUpdatePermission, who.credentials, resource))) {
        throw new NotAllowedError(`not allowed to update ${p.name}`);
      }
      return service.patch(who.as, p.cluster, p.namespace, p.name, patch, body.dryRun ?? false);
    }, body.dryRun);
    res.json({ cluster: p.cluster, instance: updated } as PortalInstance);
  });

  router.delete('/clusters/:cluster/namespaces/:namespace/instances/:name', async (req, res) => {
    const { p, who, resource } = await readInstance(req);
    await write(req, 'delete', p, who.actor, {}, async () => {
      if (!(await authorizer.allows(databasesInstanceDeletePermission, who.credentials, resource))) {
        throw new NotAllowedError(`not allowed to delete ${p.name}`);
      }
      return service.delete(who.as, p.cluster, p.namespace, p.name);
    }, false, 202);
    res.status(202).json({ cluster: p.cluster, namespace: p.namespace, name: p.name, status: 'Deleting' });
  });

  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name/connection', async (req, res) => {
    const { p, who, resource } = await readInstance(req);
    const audit = await auditor.createEvent({
      eventId: 'instance-connection-read',
      severityLevel: 'high',
      request: req,
      meta: { cluster: p.cluster, namespace: p.namespace, name: p.name },
    });
    try {
      if (!(await authorizer.allows(databasesInstanceConnectionReadPermission, who.credentials, resource))) {
        throw new NotAllowedError(`not allowed to read the connection details of ${p.name}`);
      }
      const connection = await service.connection(who.as, p.cluster, p.namespace, p.name);
      await audit.success();
      res.setHeader('Cache-Control', 'no-store');
      res.json(connection);
    } catch (e) {
      await audit.fail({ error: e as Error });
      throw toBackstageError(e);
    }
  });

  // What is wrong with an instance: whoever may read it in the portal and holds
  // databaseinstances/diagnosis in Kubernetes (asked as the user) sees it. Never cached.
  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name/diagnosis', async (req, res) => {
    const { p, who, resource } = await readInstance(req);
    if (!(await authorizer.allows(databasesInstanceReadPermission, who.credentials, resource))) {
      throw new NotAllowedError(`not allowed to read ${p.name}`);
    }
    try {
      const diagnosis = await service.diagnosis(who.as, p.cluster, p.namespace, p.name);
      res.setHeader('Cache-Control', 'no-store');
      res.json(diagnosis);
    } catch (e) {
      throw toBackstageError(e);
    }
  });

  // The instance's Kubernetes events: whoever may read it in the portal and may list events in
  // its namespace in Kubernetes (asked as the user) sees them. Never cached. Asked with
  // `Accept: text/event-stream`, the list is followed by every change (a watch as the user) for
  // as long as the page stays open; at most MAX_EVENT_STREAMS such streams at once.
  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name/events', (req, res) =>
    serveLiveList(req, res, { readInstance, authorizer, streams: eventStreams, maxStreams: MAX_EVENT_STREAMS }, {
      watch: (p, who, resource) =>
        service.instanceEvents(who.as, p.cluster, { namespace: p.namespace, name: p.name, uid: resource.instance.metadata.uid }),
      frames: { list: 'events', change: 'event' },
    }),
  );

  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name/history', async (req, res) => {
    const p = parse(instanceParams, req.params, 'path');
    const who = await caller(req);
    service.client(p.cluster);
    // The timeline outlives the instance, so access follows the namespace, not the object.
    if (!(await service.canRead(who.as, p.cluster, p.namespace))) {
      throw new NotAllowedError(`not allowed to read instances in ${p.cluster}/${p.namespace}`);
    }
    const permitted = await authorizer.predicate(databasesInstanceReadPermission, who.credentials);
    const cached = clusters.watcher(p.cluster)?.get(p.namespace, p.name);
    if (cached && !permitted({ cluster: p.cluster, instance: cached })) {
      throw new NotAllowedError(`not allowed to read ${p.name}`);
    }
    res.json(await history.history(p));
  });

  async function entityInstances(req: Request, ref: string): Promise<EntityInstancesResponse> {
    const who = await caller(req);
    // the permission decision does not depend on the entity: ask for it while the catalog answers
    const permission = authorizer.predicate(databasesInstanceReadPermission, who.credentials);
    permission.catch(() => {}); // awaited below; a selector failure must not leave it unhandled
    const labelSelector = await selectorFor(ref, who.credentials);
    const [found, permitted] = await Promise.all([service.listInstances(who.as, { labelSelector }), permission]);
    return { entityRef: ref, items: found.items.filter(permitted), errors: found.errors };
  }

  router.get('/entity-instances', async (req, res) => {
    const { entityRef: ref } = parse(entityQuery, req.query, 'query');
    res.json(await entityInstances(req, stringifyEntityRef(parseEntityRef(ref))));
  });

  router.get('/entities/:kind/:namespace/:name/instances', async (req, res) => {
    const p = parse(entityParams, req.params, 'path');
    res.json(await entityInstances(req, stringifyEntityRef({ kind: p.kind, namespace: p.namespace, name: p.name })));
  });

  router.get('/events', async (req, res) => {
    const who = await caller(req);
    const permitted = await authorizer.predicate(databasesInstanceReadPermission, who.credentials);
    events.add({
      res,
      permitted,
      canRead: (cluster, namespace) => service.canRead(who.as, cluster, namespace),
    });
  });

  const nested = { readInstance, write, service, authorizer, streams: eventStreams, maxStreams: MAX_EVENT_STREAMS };
  addBackupRoutes(router, nested);
  addScheduleRoutes(router, nested);
  addReadyRoute(router, { httpAuth, instances, streams: eventStreams, maxStreams: MAX_EVENT_STREAMS });

  // anything else under /api/databases is a Backstage error too, not the framework's empty 404
  router.use((req, _res) => {
    throw new NotFoundError(`no route for ${req.method} under /api/databases`);
  });

  return router;
}
