import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { adapters } from '../adapters/registry';
import type { KubeObject } from '../adapters/types';
import { prepareUpdate } from './validateSpec';

const current: KubeObject = {
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'MariaDB',
  metadata: { name: 'orders-copy', namespace: 'team-a', generation: 1 },
  spec: { image: 'mariadb:11.4.2', replicas: 1, storage: { size: '10Gi' }, bootstrapFrom: { backupRef: { name: 'b1' } } },
};
const previous: DatabaseInstanceSpec = { engine: 'mariadb', topology: 'standalone', version: '11.4.2', replicas: 1, storage: { size: '10Gi' }, restoreFrom: { backup: 'b1' } };

describe('spec.restoreFrom on update (only on create)', () => {
  it('refuses a change or an addition', () => {
    const changed = prepareUpdate(current, { ...previous, restoreFrom: { backup: 'b2' } }, previous, adapters);
    expect(changed).toEqual({ causes: [expect.objectContaining({ field: 'spec.restoreFrom', reason: 'FieldValueForbidden' })] });
    const added = prepareUpdate(current, { ...previous, restoreFrom: { backup: 'b1' } }, { ...previous, restoreFrom: undefined }, adapters);
    expect('causes' in added && added.causes.map(c => c.field)).toEqual(['spec.restoreFrom']);
  });

  it('lets the same value (an apply of the manifest it was created with) or none through, keeping it', () => {
    const same = prepareUpdate(current, { ...previous, replicas: 1 }, previous, adapters);
    expect('object' in same && same.object.spec.bootstrapFrom).toEqual({ backupRef: { name: 'b1' } });
    const without = prepareUpdate(current, { ...previous, restoreFrom: undefined }, previous, adapters);
    expect('spec' in without && without.spec.restoreFrom).toEqual({ backup: 'b1' });
  });
});
