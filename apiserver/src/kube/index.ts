export {
  createKubeConfig,
  kubeConfigForServer,
  type KubeConfigOptions,
} from './createKubeConfig';
export { clusterResourceVersion } from './clusterResourceVersion';
export { kubeRequest, KubeHttpError, type KubeRequest } from './kubeRequest';
export { kubeInformerFactory, stripBulkyFields } from './kubeInformerFactory';
export { resourcePath, resourceName } from './resourcePath';
export { toStatusError } from './toStatusError';
export { KubeApiWriter, type KubeApiWriterOptions } from './KubeApiWriter';
export { SECRETS, type KubeDeleteOptions, type KubeWriter } from './KubeWriter';
