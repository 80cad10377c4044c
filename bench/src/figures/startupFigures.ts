import { makeFigure, type Figure } from '../report/Figure';

/** Start-up of the apiserver: as deployed (the bundle), and the child process the figures use. */
export function startupFigures(size: number, times: { bundleMs: number; childMs: number; syncMs: number | undefined }): Figure[] {
  return [
    makeFigure('start-up: bundle as deployed → /readyz 200', size, times.bundleMs, 'ms', size === 10_000 ? { op: '<=', value: 5000 } : undefined,
      'deploy/build-apiserver.sh bundle under plain node, its flags; spawn → caches synced and /readyz 200'),
    makeFigure('start-up: fork → /readyz 200', size, times.childMs, 'ms', undefined,
      'the measuring child (sources under the on-the-fly TypeScript transform, which adds ~2–3 s)'),
    makeFigure('start-up: startApiserver() → caches synced', size, times.syncMs ?? Number.NaN, 'ms', undefined,
      'measured inside the child'),
  ];
}
