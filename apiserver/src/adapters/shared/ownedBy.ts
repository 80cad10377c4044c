import type { KubeObject } from '../types';
import { asArray, asRecord, asString } from './read';

/**
 * Whether `child` names `owner` (of `kind`) in its owner references: by uid where both have
 * one, else by kind and name. A Job of the same name that something else created (another
 * operator, a user) is not a backup run's Job.
 */
export function ownedBy(child: KubeObject, owner: KubeObject, kind: string): boolean {
  const uid = asString(owner.metadata?.uid);
  const name = asString(owner.metadata?.name);
  return asArray(child.metadata?.ownerReferences).some(raw => {
    const ref = asRecord(raw);
    if (!ref || ref.kind !== kind) return false;
    const refUid = asString(ref.uid);
    return uid && refUid ? refUid === uid : ref.name === name;
  });
}
