import { it } from '@jest/globals';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem } from '../support/startSystem';
(globalThis as any).jest?.setTimeout?.(180_000);
it('probe', async () => {
  const system = await startSystem({ seed: false });
  try {
    for (const { file, name } of kubectlBinaries(['1.27']).slice(1)) {
      const r = await runKubectl(file, system.kubeconfig, `${system.dir}/h2-${name}`, ['explain', 'dbi.status.phase', '-v=8']);
      process.stdout.write(r.stderr.split('\n').filter(l => /openapi|Accept|Content-Type|Response Status/i.test(l)).join('\n') + '\n' + r.stdout);
    }
  } finally { await system.stop(); }
});
