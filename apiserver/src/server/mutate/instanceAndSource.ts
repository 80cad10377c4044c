import {
  DATABASE_INSTANCE_PLURAL,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { InstanceSource } from '../../cache/types';
import type { HandlerContext } from '../readHandlers';
import { notFound } from '../StatusError';
import type { WriteDeps } from './WriteDeps';

/** An instance a subresource is asked of, with the operator object it is projected from. */
export interface InstanceAndSource {
  namespace: string;
  name: string;
  instance: DatabaseInstance;
  source: InstanceSource;
}

/**
 * The instance named by the request's path and its operator source object, as the watch
 * cache has them; a 404 for the instance when either is missing.
 */
export function instanceAndSource(
  ctx: HandlerContext,
  deps: WriteDeps,
): InstanceAndSource {
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  const instance = deps.store.get(namespace, name);
  const source = deps.store.source(namespace, name);
  if (!instance || !source) throw notFound(DATABASE_INSTANCE_PLURAL, name);
  return { namespace, name, instance, source };
}
