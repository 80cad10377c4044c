import type { PemKeyPair } from '../certs/types';
import type { ObjectStore, StoredObject } from '../store/types';
import { APIServiceCondition, apiServiceSpec, SERVICES } from './apiService';
import { backendGet } from './backendGet';
import { backendTlsOptions } from './backendTls';
import { hostPort } from './hostPort';
import { resolveServiceTarget } from './resolveServiceTarget';

/** The Available condition of an APIService before its type and transition time are set. */
export type AvailabilityCondition = Omit<
  APIServiceCondition,
  'type' | 'lastTransitionTime'
>;

/**
 * kube-aggregator's availability check of one APIService: local ones are always available,
 * others need their Service to resolve and `GET /apis/<group>/<version>` to answer 2xx to
 * `system:kube-aggregator` within the discovery timeout.
 */
export async function evaluateAvailability(
  obj: StoredObject,
  deps: {
    store: ObjectStore;
    frontProxy: PemKeyPair;
    discoveryTimeoutMs: number;
  },
): Promise<AvailabilityCondition> {
  const spec = apiServiceSpec(obj);
  const ref = spec.service;
  if (!ref)
    return {
      status: 'True',
      reason: 'Local',
      message: 'Local APIServices are always available',
    };
  let service: StoredObject | undefined;
  try {
    service = deps.store.get(SERVICES, ref.namespace, ref.name ?? '');
  } catch (e) {
    return {
      status: 'Unknown',
      reason: 'ServiceAccessError',
      message: (e as Error).message,
    };
  }
  if (!service) {
    return {
      status: 'False',
      reason: 'ServiceNotFound',
      message: `service/${ref.name} in "${ref.namespace}" is not present`,
    };
  }
  const target = resolveServiceTarget(spec, service);
  if (!target.ok) {
    return {
      status: 'False',
      reason:
        target.reason === 'ServicePortError'
          ? 'ServicePortError'
          : 'FailedDiscoveryCheck',
      message: target.message,
    };
  }
  const url = `https://${hostPort(target.host, target.port)}/apis/${spec.group}/${spec.version}`;
  const result = await backendGet(url, {
    ...backendTlsOptions(spec, target.serverName, deps.frontProxy),
    headers: {
      'X-Remote-User': 'system:kube-aggregator',
      'X-Remote-Group': 'system:masters',
      Accept: 'application/json',
    },
    timeoutMs: deps.discoveryTimeoutMs,
  });
  if (!result.ok) {
    return {
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: `failing or missing response from ${url}: ${result.error}`,
    };
  }
  if (result.status < 200 || result.status > 299) {
    return {
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: `failing or missing response from ${url}: bad status from ${url}: ${result.status}`,
    };
  }
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}
