import { DATABASE_INSTANCE_KIND, type InstanceKubeEvent, type InstanceKubeEventChange } from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { SelectedListWatch, type ListWatchSink } from '../kube/SelectedListWatch';
import { byLastTimestamp, toInstanceKubeEvent } from './toInstanceKubeEvent';

/** One instance, as its events name it. */
export interface EventsOf {
  namespace: string;
  name: string;
  /** Without it, a deleted instance's events would show under its successor of the same name. */
  uid?: string;
}

/** Where a watch of one instance's events reports: the whole list (newest last), then each change. */
export type InstanceEventsSink = ListWatchSink<InstanceKubeEvent, InstanceKubeEventChange>;

/** At most this many events are listed (the apiserver keeps 10 mirrors per instance). */
const LIST_LIMIT = 100;

const eventsPath = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;

/** `kubectl describe`'s selector: the events whose involved object is this instance. */
function selectorOf(of: EventsOf): string {
  return [
    `involvedObject.kind=${DATABASE_INSTANCE_KIND}`,
    `involvedObject.name=${of.name}`,
    ...(of.uid ? [`involvedObject.uid=${of.uid}`] : []),
  ].join(',');
}

/** The events of one instance as one user may read them, newest last (see SelectedListWatch). */
export class InstanceEventsWatch extends SelectedListWatch<InstanceKubeEvent, InstanceKubeEventChange> {
  constructor(client: KubeClusterClient, as: Impersonation, of: EventsOf, watchTimeoutSeconds = 300) {
    super(
      client,
      as,
      {
        path: eventsPath(of.namespace),
        fieldSelector: selectorOf(of),
        limit: LIST_LIMIT,
        toItem: toInstanceKubeEvent,
        order: byLastTimestamp,
        toChange: (type, item) => ({ type, item }),
      },
      watchTimeoutSeconds,
    );
  }
}
