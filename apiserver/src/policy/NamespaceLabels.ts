import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, ResourceType } from '../adapters/types';
import {
  ManagedInformer,
  type InformerBackoff,
} from '../cache/ManagedInformer';
import type { InformerFactory } from '../cache/ResourceInformer';
import { kubeInformerFactory } from '../kube/kubeInformerFactory';
import type { PolicyLogger } from './PolicySource';

/** Where policy checks get a namespace's labels from (for `namespaceSelector`). */
export interface NamespaceLabels {
  /** The namespace's labels, or undefined when it is not known (not synced yet, or absent). */
  get(namespace: string): Record<string, string> | undefined;
}

/** Fixed labels (tests, or a server run without namespace access). */
export class StaticNamespaceLabels implements NamespaceLabels {
  constructor(
    private readonly labels: Record<string, Record<string, string>>,
  ) {}
  get(namespace: string): Record<string, string> | undefined {
    return this.labels[namespace];
  }
}

/** The core `Namespace` type. */
export const NAMESPACE_TYPE: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
};

/** Keeps only what selectors read: a cluster can have thousands of namespaces. */
const slim = (_type: ResourceType, o: KubeObject): KubeObject => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  metadata: {
    name: o.metadata?.name,
    resourceVersion: o.metadata?.resourceVersion,
    labels: o.metadata?.labels,
  },
});

export interface InformerNamespaceLabelsOptions {
  factory: InformerFactory;
  backoff?: InformerBackoff;
  logger?: PolicyLogger;
}

/**
 * Namespace labels from a list+watch of namespaces (one watch for the whole cluster, no call per
 * request). The informer restarts with back-off after errors; labels seen before stay served.
 */
export class InformerNamespaceLabels implements NamespaceLabels {
  private readonly labels = new Map<string, Record<string, string>>();
  private readonly informer: ManagedInformer;

  constructor(options: InformerNamespaceLabelsOptions) {
    const put = (o: KubeObject) => {
      if (o.metadata?.name)
        this.labels.set(o.metadata.name, { ...(o.metadata.labels ?? {}) });
    };
    this.informer = new ManagedInformer({
      type: NAMESPACE_TYPE,
      factory: options.factory,
      onAdd: put,
      onUpdate: put,
      onDelete: o => {
        if (o.metadata?.name) this.labels.delete(o.metadata.name);
      },
      onListed: () => undefined,
      backoff: options.backoff ?? { initialMs: 500, maxMs: 30_000 },
      logger: options.logger,
    });
  }

  get(namespace: string): Record<string, string> | undefined {
    return this.labels.get(namespace);
  }

  start(): void {
    this.informer.start();
  }

  stop(): void {
    this.informer.stop();
  }

  /** True once the first list has been delivered. */
  hasSynced(): boolean {
    return this.informer.hasListed();
  }

  /** For /readyz. */
  problems(): string[] {
    const problem = this.informer.problem();
    if (problem) return [problem];
    return this.hasSynced() ? [] : ['namespaces not listed yet'];
  }
}

/** Namespace labels watched with the apiserver's credentials (needs list/watch on namespaces). */
export function kubeNamespaceLabels(
  kc: KubeConfig,
  options: Omit<InformerNamespaceLabelsOptions, 'factory'> = {},
): InformerNamespaceLabels {
  return new InformerNamespaceLabels({
    ...options,
    factory: kubeInformerFactory(kc, slim),
  });
}
