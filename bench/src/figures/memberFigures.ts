import { PODS } from '../population/buildTemplates';
import { makeFigure, type Figure } from '../report/Figure';
import { freshMemoryPairs, pairsNote } from './freshMemoryPairs';
import type { SizeContext } from './types';

/**
 * status.members: what the operators' member pods cost the apiserver (its pod watches, the slim
 * pods it keeps, the members on every served instance), from fresh apiservers over the
 * population without its pods and with them. Reported at every size; the memory group's
 * per-instance figure at 50,000 (≤ 16 KiB) includes them.
 */
export async function memberFigures(ctx: SizeContext): Promise<Figure[]> {
  const store = ctx.cluster.emulator.store;
  const pods = store.list(PODS).map((p): Record<string, any> => {
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _c, ...metadata } = p.metadata;
    return { ...p, metadata };
  });
  const statusWrite = store.resource(PODS)?.statusSubresource ? { subresource: 'status' as const } : undefined;
  const memory = await freshMemoryPairs(ctx, {
    a: () => {
      for (const p of pods) store.delete(PODS, p.metadata.namespace, p.metadata.name);
    },
    b: () => {
      for (const p of pods) {
        const { status, ...body } = p;
        const made = store.create(PODS, body);
        if (status !== undefined) store.update(PODS, { ...made, status }, statusWrite);
      }
    },
  });
  return [
    makeFigure('members: RSS per instance of its member pods', ctx.size, memory.rss, 'KiB', undefined,
      `${(pods.length / ctx.size).toFixed(2)} pods per instance, with and without them; ${pairsNote(memory)}`),
  ];
}
