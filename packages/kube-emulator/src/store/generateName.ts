import { alreadyExistsError } from './storeErrors';
import type { ResourceDefinition } from './types';

/** The characters of kube's generated name suffixes (k8s.io/apimachinery's rand: no vowels, no look-alikes). */
const GENERATE_NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * `prefix` and five random characters, as `metadata.generateName` asks: a name not `taken`,
 * else, after ten tries, the 409 AlreadyExists kube-apiserver answers then.
 */
export function generateName(def: ResourceDefinition, prefix: string, taken: (name: string) => boolean): string {
  for (let attempt = 0; attempt < 10; attempt++) {
    let suffix = '';
    for (let i = 0; i < 5; i++)
      suffix += GENERATE_NAME_CHARS[Math.floor(Math.random() * GENERATE_NAME_CHARS.length)];
    const name = `${prefix}${suffix}`;
    if (!taken(name)) return name;
  }
  throw alreadyExistsError(def, prefix);
}
