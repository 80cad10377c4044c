import type { KubeConfig } from '@kubernetes/client-node';
import { ManagedInformer } from '../cache/ManagedInformer';
import type { InformerFactory } from '../cache/ResourceInformer';
import { kubeInformerFactory } from '../kube/kubeInformerFactory';
import type { PolicyLogger } from './PolicySource';

/**
 * Tells the policy source at once when its ConfigMap is created, changed or deleted: a watch of
 * that one object (its namespace, `metadata.name=`), which the chart's Role on ConfigMaps of the
 * policy namespace allows. The source's periodic re-read stays as the fallback while the watch is
 * down (it restarts with back-off, and each list after it tells the source again).
 */
export class PolicyConfigMapWatch {
  private readonly informer: ManagedInformer;

  constructor(options: { factory: InformerFactory; namespace: string; name: string; changed: () => void; logger?: PolicyLogger }) {
    const changed = () => options.changed();
    this.informer = new ManagedInformer({
      type: {
        group: '',
        version: 'v1',
        plural: 'configmaps',
        kind: 'ConfigMap',
        namespace: options.namespace,
        fieldSelector: `metadata.name=${options.name}`,
      },
      factory: options.factory,
      onAdd: changed,
      onUpdate: changed,
      onDelete: changed,
      onListed: changed,
      backoff: { initialMs: 500, maxMs: 30_000 },
      logger: options.logger,
    });
  }

  start(): void {
    this.informer.start();
  }

  stop(): void {
    this.informer.stop();
  }
}

/** The policy ConfigMap `namespace/name` watched with the apiserver's credentials. */
export function kubePolicyConfigMapWatch(kc: KubeConfig, namespace: string, name: string, changed: () => void, logger?: PolicyLogger): PolicyConfigMapWatch {
  return new PolicyConfigMapWatch({ factory: kubeInformerFactory(kc), namespace, name, changed, logger });
}
