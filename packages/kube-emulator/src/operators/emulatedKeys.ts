import type { CustomKind, ObjectRef } from './types';

/** The key of one emulated object: `group/Kind/namespace/name` (what the control API and the kicks share). */
export const emulatedKey = (kind: { group: string; kind: string }, namespace: string | undefined, name: string): string =>
  `${kind.group}/${kind.kind}/${namespace ?? ''}/${name}`;

/** The one emulated kind `ref` names; throws when it is not emulated or ambiguous without a group. */
export function resolveEmulatedKind(kinds: CustomKind[], ref: ObjectRef): CustomKind {
  const matches = kinds.filter(k => k.kind === ref.kind && (!ref.group || k.group === ref.group));
  if (matches.length !== 1) {
    throw new Error(
      matches.length
        ? `Kind ${ref.kind} is ambiguous; give its group`
        : `Kind ${ref.group ? `${ref.group}/` : ''}${ref.kind} is not emulated`,
    );
  }
  return matches[0];
}
