import type {
  EngineSize,
  ResourceList,
} from '@internal/plugin-databases-common';
import type { InstanceDefaults } from '../adapters/types';
import { formatQuantity } from '../policy/formatQuantity';
import { parseQuantity } from '../writes/quantity';

/**
 * The default presets, as multiples of the engine's defaults: compute doubles per step while
 * storage grows faster, since data outgrows the servers that hold it.
 */
const SCALES = [
  { name: 'small', title: 'Small', compute: 1, storage: 1 },
  { name: 'medium', title: 'Medium', compute: 2, storage: 5 },
  { name: 'large', title: 'Large', compute: 4, storage: 10 },
] as const;

/** `text` × `factor`, written as a person would (`250m` × 4 = `1`, `512Mi` × 2 = `1Gi`). */
function scale(text: string, factor: number, style: 'binary' | 'decimal') {
  const q = parseQuantity(text);
  if (!q) throw new Error(`not a quantity: ${JSON.stringify(text)}`);
  return formatQuantity(q.nanos * BigInt(factor), style);
}

function scaleList(list: ResourceList, factor: number): ResourceList {
  return {
    ...(list.cpu !== undefined && { cpu: scale(list.cpu, factor, 'decimal') }),
    ...(list.memory !== undefined && {
      memory: scale(list.memory, factor, 'binary'),
    }),
  };
}

/**
 * Small, medium and large for an engine: small is exactly the engine's defaults (what a create
 * without resources gets), medium and large scale them. The defaults come from the engine
 * because engines differ (Elasticsearch wants GiBs of heap where Redis needs MiBs). The
 * defaults must name both a cpu and a memory request.
 */
export function defaultSizes(defaults: InstanceDefaults): EngineSize[] {
  const { requests, limits } = defaults.resources;
  if (!requests?.cpu || !requests.memory)
    throw new Error('engine defaults must request both cpu and memory');
  const { cpu, memory } = requests;
  return SCALES.map(s => ({
    name: s.name,
    title: s.title,
    storage: { size: scale(defaults.storage.size, s.storage, 'binary') },
    resources: {
      requests: {
        cpu: scale(cpu, s.compute, 'decimal'),
        memory: scale(memory, s.compute, 'binary'),
      },
      ...(limits && { limits: scaleList(limits, s.compute) }),
    },
  }));
}
