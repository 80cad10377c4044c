/*
 * @peculiar/x509 resolves its algorithms through tsyringe, which refuses to load without a
 * Reflect metadata polyfill. Only three functions are used and no class here relies on
 * emitted decorator metadata, so a tiny WeakMap-backed shim avoids an extra dependency.
 * It installs nothing when a real polyfill (reflect-metadata) is already present.
 */
type MetadataMap = Map<unknown, unknown>;

const reflect = Reflect as unknown as Record<string, unknown>;

if (typeof reflect.getMetadata !== 'function') {
  const store = new WeakMap<
    object,
    Map<string | symbol | undefined, MetadataMap>
  >();
  const own = (
    target: object,
    property: string | symbol | undefined,
    create: boolean,
  ) => {
    let byProperty = store.get(target);
    if (!byProperty) {
      if (!create) return undefined;
      byProperty = new Map();
      store.set(target, byProperty);
    }
    let map = byProperty.get(property);
    if (!map && create) {
      map = new Map();
      byProperty.set(property, map);
    }
    return map;
  };
  reflect.defineMetadata = (
    key: unknown,
    value: unknown,
    target: object,
    property?: string | symbol,
  ) => {
    own(target, property, true)!.set(key, value);
  };
  reflect.getOwnMetadata = (
    key: unknown,
    target: object,
    property?: string | symbol,
  ) => own(target, property, false)?.get(key);
  reflect.getMetadata = (
    key: unknown,
    target: object,
    property?: string | symbol,
  ) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t)) {
      const map = own(t, property, false);
      if (map?.has(key)) return map.get(key);
    }
    return undefined;
  };
}

export {};
