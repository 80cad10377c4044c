import { ALL_OPERATORS } from '../operators/allOperators';
import type { DemoInstance } from '../operators/types';

export type { DemoInstance, DemoPhase } from '../operators/types';

/** Demo teams (namespaces) and what each owns. */
export const DEMO_TEAMS = ['team-a', 'team-b', 'team-c'] as const;

/**
 * The demo's operator objects, each emulated operator's own (its `demo.ts`): every engine and
 * every Redis kind, spread over three teams and five components, in each lifecycle phase.
 */
export const DEMO_INSTANCES: readonly DemoInstance[] = ALL_OPERATORS.flatMap(
  operator =>
    (operator.demo?.instances ?? []).map(instance => {
      const kind = operator.kinds.find(k => k.kind === instance.kind);
      if (!kind)
        throw new Error(
          `${operator.id}'s demo names a kind it does not own: ${instance.kind}`,
        );
      return { ...instance, kind };
    }),
);

/** The demo's backup objects (each operator's `backups.demo`), created once their instances exist. */
export const DEMO_BACKUPS = ALL_OPERATORS.flatMap(operator =>
  (operator.backups?.demo ?? []).map(backup => {
    const kind = operator.backups!.kinds.find(k => k.kind === backup.kind);
    if (!kind)
      throw new Error(`${operator.id}'s demo names a backup kind it does not own: ${backup.kind}`);
    return { ...backup, kind };
  }),
);
