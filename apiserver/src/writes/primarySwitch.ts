import type { DatabaseMember } from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { type FieldCause, forbidden, notSupported } from './FieldCause';

/**
 * How an operator is told to move its primary to another member: `spec.primary` as that
 * operator spells it. Operators without a switchover have none, and a change is refused.
 */
export interface PrimarySwitch {
  /** The primary the operator object asks for (what `spec.primary` projects), if it asks for one. */
  read(object: KubeObject): string | undefined;
  /** Why this object cannot switch over (its topology has no primary to move), if it cannot. */
  refusal?(object: KubeObject): string | undefined;
  /** Tells the operator, on a copy of its object, to make `member` the primary (`now`: RFC 3339). */
  set(object: KubeObject, member: string, now: string): void;
}

/** What an update knows beyond the specs: the instance's members as served, and the time. */
export interface UpdateContext {
  members?: readonly DatabaseMember[];
  now?: string;
}

/** The primary a spec asks for, when it differs from the current one. */
export function primaryChangeOf(next: { primary?: string }, previous: { primary?: string }): string | undefined {
  return next.primary === undefined || next.primary === previous.primary ? undefined : next.primary;
}

/**
 * Why a switchover to `member` is refused: the operator has none, this object's topology has
 * no primary to move, or the member is not one of the instance's or is not ready (a switchover
 * promotes a replica that is in step), or no members are listed yet.
 */
export function switchoverRefusals(
  operator: string,
  sw: PrimarySwitch | undefined,
  current: KubeObject,
  member: string,
  members: readonly DatabaseMember[] | undefined,
): FieldCause[] {
  if (!sw) {
    return [forbidden('spec.primary', `${operator} has no switchover an API client can ask for: its members choose their primary themselves`)];
  }
  const refusal = sw.refusal?.(current);
  if (refusal) return [forbidden('spec.primary', refusal)];
  if (!members?.length) return [forbidden('spec.primary', 'the instance lists no members yet (status.members): switch over once it does')];
  const found = members.find(m => m.name === member);
  if (!found) return [notSupported('spec.primary', member, members.map(m => m.name))];
  if (!found.ready) return [forbidden('spec.primary', `member ${member} is not ready: only a ready member can take over as primary`)];
  return [];
}
