export {
  createKubeConfig,
  kubeConfigForServer,
  type KubeConfigOptions,
} from './createKubeConfig';
export { kubeRequest, KubeHttpError, type KubeRequest } from './kubeRequest';
export { kubeInformerFactory, stripBulkyFields } from './kubeInformerFactory';
export { resourcePath, resourceName } from './resourcePath';
export { toStatusError } from './toStatusError';
