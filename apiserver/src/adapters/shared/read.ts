import {
  ANNOTATION_DELETION_PROTECTION,
  type DiagnosisObjectRef,
  type Endpoint,
  type ResourceList,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../types';

/**
 * Small total readers over unstructured operator objects. Upstream objects are untrusted input:
 * every reader returns undefined for a missing or mistyped field instead of throwing.
 */

/** A condition as operators write them (metav1.Condition, loosely typed). */
export interface UpstreamConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export const asString = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;

export const asNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

export const asRecord = (v: unknown): Record<string, any> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, any>)
    : undefined;

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The conditions array of a status, keeping only well-formed entries. */
export function conditionsOf(status: unknown): UpstreamConditionLike[] {
  return asArray(asRecord(status)?.conditions).filter(
    (c): c is UpstreamConditionLike =>
      asRecord(c) !== undefined && typeof (c as any).type === 'string',
  );
}

export const findCondition = (status: unknown, type: string) =>
  conditionsOf(status).find(c => c.type === type);

/** True when the object has a status with at least one field. */
export const hasAnyStatus = (o: KubeObject) =>
  Object.keys(asRecord(o.status) ?? {}).length > 0;

/**
 * Engine version from an image reference's tag: the leading dotted number, without a `v`
 * prefix or a distribution suffix (`rabbitmq:3.10.7-debian-11-r8` → `3.10.7`). Undefined for
 * no tag, `latest`, or a digest-only reference, because those do not name a version.
 */
export function versionFromImage(image: unknown): string | undefined {
  const ref = asString(image);
  if (!ref) return undefined;
  const withoutDigest = ref.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  if (colon < 0) return undefined;
  return versionFromTag(withoutDigest.slice(colon + 1));
}

/** Leading dotted version of a tag or version string (`v7` → `7`, `11.4.2-ubi` → `11.4.2`). */
export function versionFromTag(tag: unknown): string | undefined {
  const match = /^v?(\d+(?:\.\d+)*)/.exec(asString(tag) ?? '');
  return match?.[1];
}

/** Kubernetes quantities may arrive as numbers (`cpu: 6`); the wire type is a string. */
export const quantity = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : asString(v);

/** cpu/memory requests and limits out of a core/v1 ResourceRequirements. */
export function resourcesOf(
  value: unknown,
): { requests?: ResourceList; limits?: ResourceList } | undefined {
  const pick = (list: unknown): ResourceList | undefined => {
    const r = asRecord(list);
    if (!r) return undefined;
    const out: ResourceList = {};
    const cpu = quantity(r.cpu);
    const memory = quantity(r.memory);
    if (cpu) out.cpu = cpu;
    if (memory) out.memory = memory;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const r = asRecord(value);
  const requests = pick(r?.requests);
  const limits = pick(r?.limits);
  if (!requests && !limits) return undefined;
  return { ...(requests && { requests }), ...(limits && { limits }) };
}

/** `<service>.<namespace>.svc`: the in-cluster DNS name of a Service. */
export function serviceEndpoint(
  name: string,
  service: string,
  namespace: string,
  port: number,
): Endpoint {
  return { name, host: `${service}.${namespace}.svc`, port };
}

/** Namespace of an object; Kubernetes defaults a missing one to `default`. */
export const namespaceOf = (o: KubeObject) =>
  asString(o.metadata?.namespace) ?? 'default';

/** Name of an object ('' when absent, which only happens with malformed input). */
export const nameOf = (o: KubeObject) => asString(o.metadata?.name) ?? '';

/** Turns an upstream SHOUTING_CASE or kebab/space separated word into PascalCase (`ONLINE_PARTIAL` → `OnlinePartial`). */
export function pascalCase(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(w =>
      /^[A-Z0-9]+$/.test(w)
        ? w.charAt(0) + w.slice(1).toLowerCase()
        : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join('');
}

/**
 * Reasons so generic they say nothing beyond "failed" become `OperatorError`; specific ones
 * (UnsupportedOperation, InvalidConfiguration...) are kept, since they tell users what to fix.
 */
export function errorReason(upstreamReason: string | undefined): string {
  const generic = ['', 'Error', 'Failed', 'Failure', 'Unknown'];
  return upstreamReason && !generic.includes(upstreamReason)
    ? pascalCase(upstreamReason)
    : 'OperatorError';
}

/**
 * `spec.deletionProtection` as stored on the operator object (an annotation, since no
 * operator has such a field): true when set, undefined otherwise.
 */
export const deletionProtectionOf = (o: KubeObject): true | undefined =>
  o.metadata?.annotations?.[ANNOTATION_DELETION_PROTECTION] === 'true'
    ? true
    : undefined;

/** A reference to an object, as a diagnosis finding names what it is about. */
export const objectRefOf = (o: KubeObject): DiagnosisObjectRef => ({
  apiVersion: o.apiVersion ?? '',
  kind: o.kind ?? '',
  name: nameOf(o),
  namespace: namespaceOf(o),
});
