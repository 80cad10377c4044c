import { makeFigure, type Figure } from '../report/Figure';
import type { MemoryUsage } from '../system/ApiserverProcess';

const KiB = 1024;
const MiB = 1024 * 1024;

/**
 * Memory of the apiserver process with `size` instances (caches synced, every list format
 * served once so pre-encoded bodies exist) against the same process with no instance.
 */
export function memoryFigures(size: number, empty: MemoryUsage, full: MemoryUsage): Figure[] {
  const perInstance = (a: number, b: number) => (b - a) / size / KiB;
  return [
    makeFigure('memory: RSS growth per instance', size, perInstance(empty.rss, full.rss), 'KiB', size >= 50_000 ? { op: '<=', value: 16 } : undefined,
      `RSS ${(full.rss / MiB).toFixed(0)} MiB vs ${(empty.rss / MiB).toFixed(0)} MiB with no instance, after full GCs; per instance heapTotal ${perInstance(empty.heapTotal, full.heapTotal).toFixed(2)}, external ${perInstance(empty.external, full.external).toFixed(2)} KiB (of it array buffers ${perInstance(empty.arrayBuffers, full.arrayBuffers).toFixed(2)})`),
    makeFigure('memory: heap growth per instance', size, perInstance(empty.heapUsed, full.heapUsed), 'KiB', undefined,
      `heapUsed ${(full.heapUsed / MiB).toFixed(0)} MiB vs ${(empty.heapUsed / MiB).toFixed(0)} MiB`),
    makeFigure('memory: RSS', size, full.rss / MiB, 'MiB'),
    makeFigure('memory: heap used', size, full.heapUsed / MiB, 'MiB'),
  ];
}
