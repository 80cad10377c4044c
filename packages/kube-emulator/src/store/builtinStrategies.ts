import { jsonEqual } from './jsonEqual';
import { isNamespace, type Obj } from './storeKeys';
import type { ResourceDefinition } from './types';
import { defaultRbacObject, isRbacResource } from './validateRbacObject';

/**
 * Built-in kinds' create strategies (the parts clients observe). `nextRv` seeds a Service's
 * cluster IP, so that each Service gets its own.
 */
export function prepareForCreate(def: ResourceDefinition, obj: Obj, nextRv: number): void {
  defaultRbacObject(def, obj);
  if (isNamespace(def)) obj.status = { phase: 'Active' };
  if (def.group === '' && def.plural === 'secrets') {
    obj.type ??= 'Opaque';
    mergeStringData(obj);
  }
  if (def.group === '' && def.plural === 'services') {
    obj.spec ??= {};
    obj.spec.type ??= 'ClusterIP';
    if (obj.spec.type !== 'ExternalName' && !obj.spec.clusterIP) {
      obj.spec.clusterIP = `10.96.${(nextRv >> 8) & 255}.${nextRv & 255}`;
      obj.spec.clusterIPs = [obj.spec.clusterIP];
    }
    obj.status = { loadBalancer: {} };
  }
}

/** Built-in kinds' update strategies: a Service keeps its cluster IP when an update leaves it out. */
export function prepareForUpdate(def: ResourceDefinition, obj: Obj, old: Obj): void {
  defaultRbacObject(def, obj);
  if (def.group === '' && def.plural === 'secrets') mergeStringData(obj);
  if (
    def.group === '' &&
    def.plural === 'services' &&
    old.spec?.clusterIP &&
    obj.spec &&
    !obj.spec.clusterIP
  ) {
    obj.spec.clusterIP = old.spec.clusterIP;
    obj.spec.clusterIPs = old.spec.clusterIPs;
  }
}

/** Whether objects of the kind count generations (RBAC objects have no spec, and kube-apiserver gives them none). */
export function hasGeneration(def: ResourceDefinition): boolean {
  return def.group !== '' && !isRbacResource(def);
}

/** Generation counts changes to anything but metadata (and status, when status is a subresource). */
export function specChanged(def: ResourceDefinition, a: Obj, b: Obj): boolean {
  const strip = (o: Obj) => {
    const { metadata: _m, status: _s, ...rest } = o;
    return def.statusSubresource ? rest : { ...rest, status: o.status };
  };
  return !jsonEqual(strip(a), strip(b));
}

/** The object without what every write changes anyway: an update that changes nothing else is no write. */
export function withoutVolatile(obj: Obj): Obj {
  const {
    resourceVersion: _rv,
    managedFields: _mf,
    ...meta
  } = obj.metadata ?? {};
  return { ...obj, metadata: meta };
}

function mergeStringData(obj: Obj): void {
  if (obj.stringData && typeof obj.stringData === 'object') {
    obj.data = { ...(obj.data ?? {}) };
    for (const [k, v] of Object.entries(obj.stringData))
      obj.data[k] = Buffer.from(String(v)).toString('base64');
  }
  delete obj.stringData;
}
