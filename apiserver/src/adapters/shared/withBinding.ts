import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { BINDING_SECRETS, bindingSecretName, isBindingSecretOf } from '../../binding/bindingSecret';
import type { KubeObject, OperatorAdapter, RelatedRef } from '../types';

const bindingRef = (source: KubeObject): RelatedRef => ({
  type: BINDING_SECRETS,
  namespace: source.metadata?.namespace ?? 'default',
  name: bindingSecretName(source.metadata?.name ?? ''),
});

/**
 * The adapter with the instance's Service Binding (servicebinding.io's Provisioned Service):
 * `status.binding.name` once the apiserver's binding Secret for the operator object exists
 * (BindingSecrets keeps it), so a binding runtime is never pointed at a Secret that is not there.
 * Adapters without a write side have no connection to bind.
 */
export function withBinding(adapter: OperatorAdapter): OperatorAdapter {
  if (!adapter.write) return adapter;
  return {
    ...adapter,
    relatedTypes: [...adapter.relatedTypes, BINDING_SECRETS],
    relatedRefs: (source, kind) => [...adapter.relatedRefs(source, kind), bindingRef(source)],
    project(source, kind, related): DatabaseInstance {
      const instance = adapter.project(source, kind, related);
      const ref = bindingRef(source);
      const secret = related.get(ref);
      if (!secret || !isBindingSecretOf(secret, source) || !instance.status) return instance;
      return { ...instance, status: { ...instance.status, binding: { name: ref.name } } };
    },
  };
}
