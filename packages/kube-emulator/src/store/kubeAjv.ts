import Ajv, { _ } from 'ajv';
import { KUBE_AJV_FORMATS } from './kubeFormats';
import { FORMATS_MODULE } from './standaloneValidators';

/**
 * The ajv that validates CRD objects as kube-apiserver does. strict: false because CRD schemas
 * carry vendor extensions and formats kube ignores; every validator's code is kept
 * (StandaloneValidators), naming the formats by FORMATS_MODULE.
 */
export function createKubeAjv(): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    verbose: true,
    useDefaults: true,
    logger: false,
    code: { source: true, formats: _`require(${FORMATS_MODULE})` },
  });
  for (const [name, format] of Object.entries(KUBE_AJV_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}
