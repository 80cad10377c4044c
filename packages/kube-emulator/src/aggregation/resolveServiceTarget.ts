import { isIP } from 'node:net';
import type { StoredObject } from '../store/types';
import type { APIServiceSpec } from './apiService';

/** Where to send requests for an APIService, or why that cannot be known. */
export type ServiceTarget =
  | { ok: true; host: string; port: number; serverName: string }
  | {
      ok: false;
      reason: 'ServicePortError' | 'ServiceResolveError';
      message: string;
    };

interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: number | string;
}

function isLoopback(ip: string): boolean {
  return (isIP(ip) === 4 && ip.startsWith('127.')) || ip === '::1';
}

/**
 * Resolves an APIService's `spec.service` to a host and port. The emulator has no cluster
 * network, so, after kube-apiserver's `ResolveCluster`:
 *
 * - `type: ExternalName`: host = `spec.externalName` (e.g. `localhost`, `127.0.0.1`),
 *   port = the APIService's `spec.service.port` (default 443) — exactly as kube-apiserver.
 * - any other type: the Service must have a port whose `port` equals `spec.service.port`
 *   (default 443), else `ServicePortError`; the connection goes to that port's numeric
 *   `targetPort` (where the extension process really listens; `port` when unset) on the Service's
 *   `clusterIP` if that is a loopback address, else on 127.0.0.1 — standing in for kube-proxy.
 *   A named `targetPort` cannot be resolved without pods and is an error, so is `clusterIP: None`.
 *
 * TLS always verifies the serving certificate for `<service>.<namespace>.svc`.
 */
export function resolveServiceTarget(
  spec: APIServiceSpec,
  service: StoredObject,
): ServiceTarget {
  const ref = spec.service ?? {};
  const serverName = `${ref.name}.${ref.namespace}.svc`;
  const wantedPort = ref.port ?? 443;
  const svcSpec = (service.spec ?? {}) as {
    type?: string;
    externalName?: string;
    clusterIP?: string;
    ports?: ServicePort[];
  };
  const where = `service/${ref.name} in "${ref.namespace}"`;
  if (svcSpec.type === 'ExternalName') {
    if (!svcSpec.externalName)
      return {
        ok: false,
        reason: 'ServiceResolveError',
        message: `${where} has no externalName`,
      };
    return {
      ok: true,
      host: svcSpec.externalName,
      port: wantedPort,
      serverName,
    };
  }
  if (svcSpec.clusterIP === 'None') {
    return {
      ok: false,
      reason: 'ServiceResolveError',
      message: `invalid service ${ref.namespace}/${ref.name}: clusterIP is "None"`,
    };
  }
  const port = (svcSpec.ports ?? []).find(p => p?.port === wantedPort);
  if (!port)
    return {
      ok: false,
      reason: 'ServicePortError',
      message: `${where} is not listening on port ${wantedPort}`,
    };
  if (typeof port.targetPort === 'string') {
    return {
      ok: false,
      reason: 'ServiceResolveError',
      message: `${where} port ${wantedPort} has the named targetPort "${port.targetPort}", which the emulator cannot resolve without pods; use a number`,
    };
  }
  const host =
    svcSpec.clusterIP && isLoopback(svcSpec.clusterIP)
      ? svcSpec.clusterIP
      : '127.0.0.1';
  return { ok: true, host, port: port.targetPort ?? wantedPort, serverName };
}
