import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { RbacObject } from './types';

// The emulator runs from source (package main is src/index.ts), so the file is found beside it.
// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/** kube-apiserver's bootstrap roles and bindings the emulator serves (rbac/bootstrap-policy.yaml). */
export const BOOTSTRAP_POLICY_PATH = path.resolve(
  SOURCE_DIR,
  '../../rbac/bootstrap-policy.yaml',
);

let cached: RbacObject[] | undefined;

/** The bootstrap policy's objects (read once per process; callers get copies). */
export function bootstrapPolicy(): RbacObject[] {
  cached ??= parse(readFileSync(BOOTSTRAP_POLICY_PATH, 'utf8')) as RbacObject[];
  return structuredClone(cached);
}
