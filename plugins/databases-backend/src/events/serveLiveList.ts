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
  /**
   * The instance of the path, read as the user (their 403 or 404 if they may not), and who asks;
   * `beside` runs as soon as who asks is known, during the read.
   */
  readInstance(
    req: Request,
    beside?: (p: { cluster: string; namespace: string; name: string }, who: InstanceCaller) => void,
  ): Promise<{ p: { cluster: string; namespace: string; name: string }; who: InstanceCaller; resource: PortalInstance }>;
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
    /**
     * The list needs nothing of the instance (`resource` unread): a JSON answer lists beside the
     * read of the instance, as the user, and is sent only once the read and the policy allowed it.
     */
    independent?: boolean;
  },
): Promise<void> {
  const live = req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream';
  let early: Promise<{ items: T[] }> | undefined;
  const beside = !live && list.independent
    ? (bp: { cluster: string; namespace: string; name: string }, bwho: InstanceCaller) => {
        early = list.watch(bp, bwho, undefined as unknown as PortalInstance).list();
        // settled here too: a read or policy refusal must not leave it unhandled
        early.catch(() => undefined);
      }
    : undefined;
  const { p, who, resource } = await deps.readInstance(req, beside);
  if (!(await deps.authorizer.allows(databasesInstanceReadPermission, who.credentials, resource))) {
    throw new NotAllowedError(`not allowed to read ${p.name}`);
  }
  if (live && deps.streams.open >= deps.maxStreams) {
    throw new ServiceUnavailableError(`${deps.maxStreams} event streams are open on this backend; ask for the list instead`);
  }
  const watch = early ? undefined : list.watch(p, who, resource);
  let first: { items: T[] };
  try {
    first = await (early ?? watch!.list());
  } catch (e) {
    throw toBackstageError(e);
  }
  res.setHeader('Cache-Control', 'no-store');
  if (!live || !watch) {
    res.json({ cluster: p.cluster, items: first.items });
    return;
  }
  deps.streams.open += 1;
  await streamListWatch(res, watch, first, { ...list.frames, with: { cluster: p.cluster } }).finally(() => (deps.streams.open -= 1));
}
