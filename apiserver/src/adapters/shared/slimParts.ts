import type { KubeObject } from '../types';
import { asArray, asRecord } from './read';

const OWNER_KEYS = ['apiVersion', 'kind', 'name', 'uid', 'controller'] as const;
const CONDITION_KEYS = ['type', 'status', 'reason', 'message', 'lastTransitionTime'] as const;

/** The keys of `from` that are set, in the order given. */
export const pick = (from: Record<string, any>, keys: readonly string[]) => {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
};

const records = (list: unknown) =>
  asArray(list)
    .map(asRecord)
    .filter((r): r is Record<string, any> => r !== undefined);

/** An object's owner references as a slim cache keeps them (what ownedBy reads). */
export const keptOwners = (obj: KubeObject) => records(obj.metadata?.ownerReferences).map(r => pick(r, OWNER_KEYS));

/** An object's status conditions as a slim cache keeps them (type, status, reason, message, time). */
export const keptConditions = (obj: KubeObject) => records(asRecord(obj.status)?.conditions).map(c => pick(c, CONDITION_KEYS));
