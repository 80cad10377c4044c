import type { DatabaseTopology } from '@internal/plugin-databases-common';
import type { AdapterWriteSide } from '../adapters/types';
import type { EngineRules } from './EngineRules';
import { validateEngineSpec } from './validateEngineSpec';

/**
 * The part of a write side that follows from the operator's rules alone: offered topologies,
 * the default one, and validation. Adapters spread it and add what is theirs (defaults,
 * building and updating the operator object, connection details).
 */
export function rulesWriteSide(
  rules: EngineRules,
  defaultTopology: DatabaseTopology,
): Pick<
  AdapterWriteSide,
  'rules' | 'topologies' | 'defaultTopology' | 'validate'
> {
  return {
    rules,
    topologies: [...rules.topologies],
    defaultTopology,
    validate: (spec, ctx) => validateEngineSpec(rules, spec, ctx),
  };
}
