import { asRecord, asString, nameOf } from '../shared/read';
import type { KubeObject } from '../types';

/** The bootstrap methods that create the application user (each may name its own Secret). */
const BOOTSTRAPS = ['initdb', 'recovery', 'pg_basebackup'] as const;

/**
 * The Secret with the application user's credentials: the one the bootstrap names
 * (`spec.bootstrap.<method>.secret.name`), else `<name>-app`, which the operator generates
 * (pkg/specs/secrets.go: username, password, dbname, host, port, uri...).
 */
export function appSecretName(source: KubeObject): string {
  const bootstrap = asRecord(asRecord(source.spec)?.bootstrap) ?? {};
  for (const method of BOOTSTRAPS) {
    const named = asString(asRecord(asRecord(bootstrap[method])?.secret)?.name);
    if (named) return named;
  }
  return `${nameOf(source)}-app`;
}
