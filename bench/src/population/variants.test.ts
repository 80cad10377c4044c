import { describe, expect, it } from '@jest/globals';
import { adapters } from '@internal/databases-apiserver';
import { allVariants } from './variants';
import { buildTemplates } from './buildTemplates';

describe('the bench population', () => {
  // The population comes from the adapters, so a new operator (PostgreSQL, issue 21) is in it
  // with the same phase mix and the same targets, with no bench code naming it.
  it('has every engine × topology the adapters offer, in every weighted phase', () => {
    const variants = allVariants();
    for (const adapter of adapters)
      for (const topology of adapter.write!.topologies)
        expect(
          variants
            .filter(
              v =>
                v.engine === adapter.engine &&
                v.topology === topology &&
                v.kind.kind === adapter.write!.kindFor(topology).kind,
            )
            .map(v => v.mode)
            .sort(),
        ).toEqual([
          'degraded',
          'failed',
          'pending',
          'provisioning',
          'ready',
          'updating',
        ]);
    expect(
      variants.some(
        v => v.engine === 'postgresql' && v.kind.kind === 'Cluster',
      ),
    ).toBe(true);
  });

  it('builds each variant as its adapter would create it', () => {
    const pg = allVariants().find(
      v => v.id === 'postgresql-replication-ready',
    )!;
    const { object, secrets } = pg.build('pg-1', 'bench-1');
    expect(object).toMatchObject({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg-1', namespace: 'bench-1' },
      spec: { instances: 3 },
    });
    expect(secrets).toEqual([]);
  });
});

describe('buildTemplates', () => {
  it('gives the Ready templates the Ready spec an apiserver records, and no other template one', async () => {
    const variants = allVariants().filter(v => v.engine === 'mariadb' || v.engine === 'postgresql');
    const templates = await buildTemplates(variants);
    const recorded = (t: (typeof templates)[number]) => t.object.metadata.annotations?.['dbaas.platform.dev/ready-spec'];
    const ready = templates.filter(t => t.variant.mode === 'ready');
    expect(ready.length).toBeGreaterThan(0);
    for (const t of ready) expect([t.variant.id, typeof recorded(t)]).toEqual([t.variant.id, 'string']);
    for (const t of templates.filter(x => x.variant.mode !== 'ready')) expect([t.variant.id, recorded(t)]).toEqual([t.variant.id, undefined]);
  }, 60_000);
});
