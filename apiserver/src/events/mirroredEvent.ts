import { createHash } from 'node:crypto';
import { DATABASES_GROUP_VERSION, mirroredEventMessage } from '@internal/plugin-databases-common';
import type { KubeObject, ResourceType } from '../adapters/types';
import { type EventOwner, INSTANCE_KIND, type OwnerCandidate } from './eventOwner';

/** core/v1 Events. */
export const EVENTS: ResourceType = { group: '', version: 'v1', plural: 'events', kind: 'Event' };
/** Set on every mirrored event, so that they can be told from events others wrote. */
export const LABEL_MIRRORED = 'dbaas.platform.dev/mirrored';
/** The component a mirrored event names when its source named none. */
export const MIRROR_COMPONENT = 'dbaas-apiserver';

type EventFields = {
  involvedObject?: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
};

/** The name of the mirror of one source event: the instance's, as kube names events, and stable. */
export const mirroredEventName = (owner: EventOwner, sourceUid: string) =>
  `${owner.name}.${createHash('sha256').update(sourceUid).digest('hex').slice(0, 16)}`;

/** A MicroTime or Time as a Time (seconds): what `firstTimestamp`/`lastTimestamp` hold. */
const asTime = (t: string | null | undefined) =>
  t ? t.replace(/\.\d+(?=Z|[+-]\d\d:\d\d$)/, '') : undefined;

/**
 * The event as the instance's own (core/v1, so that `kubectl describe` and `kubectl get events`
 * show it with the instance's): same reason, type, count and times; the message says which
 * object it is about unless that is the operator object; `related` points at that object.
 * Events written the events.k8s.io way (eventTime, series) get the legacy times kubectl sorts by.
 */
export function mirroredEvent(source: KubeObject, owner: OwnerCandidate): KubeObject {
  const e = source as KubeObject & EventFields;
  const about = e.involvedObject ?? {};
  const first = asTime(e.firstTimestamp) ?? asTime(e.eventTime) ?? asTime(source.metadata?.creationTimestamp);
  const last = asTime(e.lastTimestamp) ?? asTime(e.series?.lastObservedTime) ?? first;
  const ownObject = about.kind === owner.source.kind && about.name === owner.source.name;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: mirroredEventName(owner, source.metadata?.uid ?? `${source.metadata?.namespace}/${source.metadata?.name}`),
      namespace: owner.namespace,
      labels: { [LABEL_MIRRORED]: 'true' },
    },
    involvedObject: {
      apiVersion: DATABASES_GROUP_VERSION,
      kind: INSTANCE_KIND,
      name: owner.name,
      namespace: owner.namespace,
      uid: owner.uid,
    },
    related: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      name: about.name,
      namespace: about.namespace,
      uid: about.uid,
    },
    reason: e.reason,
    message: ownObject ? e.message : mirroredEventMessage(about, e.message),
    type: e.type ?? 'Normal',
    count: e.count ?? e.series?.count ?? 1,
    ...(first && { firstTimestamp: first }),
    ...(last && { lastTimestamp: last }),
    source: {
      component: e.source?.component || e.reportingComponent || MIRROR_COMPONENT,
      ...(e.source?.host && { host: e.source.host }),
    },
  };
}
