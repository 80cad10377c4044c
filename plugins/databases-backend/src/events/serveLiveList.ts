import type { Request, Response } from 'express';
import { NotAllowedError, ServiceUnavailableError } from '@backstage/errors';
import { databasesInstanceReadPermission, type PortalInstance } from '@internal/plugin-databases-common';
import type { InstanceCaller } from '../instances/InstanceRequests';
import type { SelectedListWatch } from '../kube/SelectedListWatch';
import type { InstanceAuthorizer } from '../permissions/InstanceAuthorizer';
import { toBackstageError } from '../service/toBackstageError';
import { streamListWatch } from './streamListWatch';

/** What a live list route of one instance needs from the router. */
export interface LiveListDeps {
  /** The instance of the path, read as the user (their 403 or 404 if they may not), and who asks. */
  readInstance(req: Request): Promise<{ p: { cluster: string; namespace: string; name: string }; who: InstanceCaller; resource: PortalInstance }>;
  authorizer: InstanceAuthorizer;
  /** Live streams open on this backend, shared by every such route. */
  streams: { open: number };
  maxStreams: number;
}

/**
 * One instance's objects of a kind (its events, backups, schedules) as the user may list them:
 * `databases.instance.read` first, then a list as the user (their RBAC decides), answered as JSON
 * (`{ cluster, items }`), or, asked with `Accept: text/event-stream`, followed live: the list,
 * then every change (see streamListWatch). Never cached.
 */
export async function serveLiveList<T, C>(
  req: Request,
  res: Response,
  deps: LiveListDeps,
  list: {
    watch(p: { cluster: string; namespace: string; name: string }, who: InstanceCaller, resource: PortalInstance): SelectedListWatch<T, C>;
    frames: { list: string; change: string };
  },
): Promise<void> {
  const { p, who, resource } = await deps.readInstance(req);
  if (!(await deps.authorizer.allows(databasesInstanceReadPermission, who.credentials, resource))) {
    throw new NotAllowedError(`not allowed to read ${p.name}`);
  }
  const live = req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream';
  if (live && deps.streams.open >= deps.maxStreams) {
    throw new ServiceUnavailableError(`${deps.maxStreams} event streams are open on this backend; ask for the list instead`);
  }
  const watch = list.watch(p, who, resource);
  let first: Awaited<ReturnType<typeof watch.list>>;
  try {
    first = await watch.list();
  } catch (e) {
    throw toBackstageError(e);
  }
  res.setHeader('Cache-Control', 'no-store');
  if (!live) {
    res.json({ cluster: p.cluster, items: first.items });
    return;
  }
  deps.streams.open += 1;
  await streamListWatch(res, watch, first, { ...list.frames, with: { cluster: p.cluster } }).finally(() => (deps.streams.open -= 1));
}
