import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { KubeObject, ResourceType } from '../adapters/types';
import type {
  InformerFactory,
  ResourceInformer,
} from '../cache/ResourceInformer';
import { listAllPages } from './listAllPages';
import { resourcePath } from './resourcePath';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Drops what no adapter reads and what costs most memory per object at scale: managedFields
 * and kubectl's last-applied copy of the whole object.
 */
export function stripBulkyFields(obj: KubeObject): KubeObject {
  const meta = obj?.metadata;
  if (!meta || (!meta.managedFields && !meta.annotations?.[LAST_APPLIED])) {
    return obj;
  }
  const { managedFields: _dropped, ...rest } = meta;
  const annotations = rest.annotations ? { ...rest.annotations } : undefined;
  if (annotations) {
    delete annotations[LAST_APPLIED];
  }
  return {
    ...obj,
    metadata: { ...rest, ...(annotations ? { annotations } : {}) },
  };
}

/** Per-type transform applied to every listed and watched object before it is cached. */
export type ObjectTransform = (
  type: ResourceType,
  obj: KubeObject,
) => KubeObject;

/**
 * InformerFactory over client-node's ListWatch: list (in pages) then watch of every object of a
 * type in all namespaces (in its namespace, with its label and field selectors, where it has them), with `transform`
 * applied to list items and watch events before caching.
 */
export function kubeInformerFactory(
  kc: KubeConfig,
  transform: ObjectTransform = (t, o) => (t.slim ? t.slim(o) : stripBulkyFields(o)),
): InformerFactory {
  return (type, hooks) => {
    const path = resourcePath(type, type.namespace);
    const query: Record<string, string> = {
      ...(type.labelSelector && { labelSelector: type.labelSelector }),
      ...(type.fieldSelector && { fieldSelector: type.fieldSelector }),
    };
    const listFn = async (): Promise<
      KubernetesListObject<KubernetesObject>
    > => {
      const items: KubernetesObject[] = [];
      const resourceVersion = await listAllPages(kc, path, query, o => {
        items.push(transform(type, o) as KubernetesObject);
      });
      // ListWatch delivers these items synchronously right after this promise settles;
      // setImmediate runs after that, so "listed" means "delivered".
      setImmediate(() => hooks.onListed(resourceVersion));
      return { metadata: { resourceVersion }, items } as KubernetesListObject<KubernetesObject>;
    };
    const watch = new Watch(kc);
    const transforming = {
      watch: (
        p: string,
        q: any,
        cb: (phase: string, obj: any, raw: any) => void,
        done: (err: any) => void,
      ) => {
        let failed = false;
        const opened = watch.watch(
          p,
          // bookmarks tell how far the watch has got when the type itself does not change
          { ...q, allowWatchBookmarks: true },
          (phase, obj, raw) => {
            if (phase === 'BOOKMARK' && obj?.metadata?.resourceVersion) {
              // every event before it on this stream has been delivered already
              hooks.onProgress?.(obj.metadata.resourceVersion);
            }
            cb(
              phase,
              phase === 'ERROR' || phase === 'BOOKMARK'
                ? obj
                : transform(type, obj),
              raw,
            );
          },
          err => {
            failed = true;
            done(err);
          },
        );
        // client-node resolves once the response has started, or after it has failed
        void opened.then(() => {
          if (!failed) hooks.onWatching?.();
        });
        return opened;
      },
    } as unknown as Watch;
    return new ListWatch<KubernetesObject>(
      path,
      transforming,
      listFn,
      false,
      type.labelSelector,
      type.fieldSelector,
    ) as unknown as ResourceInformer;
  };
}
