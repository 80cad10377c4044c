export * from './types';
export {
  InformerInstanceStore,
  type InformerInstanceStoreOptions,
} from './InformerInstanceStore';
export type {
  InformerFactory,
  InformerHooks,
  ResourceInformer,
} from './ResourceInformer';
export { CRD_TYPE, crdServesKind } from './crdServesKind';
export { NAME_CONFLICT_CONDITION } from './servedNames';
export { STALE_CONDITION } from './staleCondition';
export { maxResourceVersion, rvToBigInt, isNewer } from './resourceVersion';
