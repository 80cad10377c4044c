import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { instanceToEntity } from './instanceToEntity';

const instance = (labels?: Record<string, string>): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders-db', namespace: 'team-a', labels, annotations: { 'dbaas.platform.dev/owner': 'group:default/team-a' } },
  spec: { engine: 'mariadb', topology: 'galera' },
  status: { phase: 'Ready', source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: 'orders-db', operator: 'mariadb-operator' } },
});

describe('instanceToEntity', () => {
  it('is a database Resource owned by the owner annotation and a dependency of its component', () => {
    const e = instanceToEntity({ cluster: 'local', instance: instance({ 'backstage.io/kubernetes-id': 'orders' }) }, 'p');
    expect(e.kind).toBe('Resource');
    expect(e.metadata.name).toBe('local-team-a-orders-db');
    expect(e.spec).toEqual({ type: 'database', owner: 'group:default/team-a', dependencyOf: ['component:default/orders'] });
    // what the catalog read permission filters on: the namespace, and the cluster as a whole
    expect(e.metadata.annotations).toMatchObject({ 'dbaas.platform.dev/scope': 'local:team-a', 'dbaas.platform.dev/cluster': 'local' });
  });

  it('has no dependencyOf without the kubernetes-id label', () => {
    const e = instanceToEntity({ cluster: 'local', instance: instance() }, 'p');
    expect(e.spec).not.toHaveProperty('dependencyOf');
  });

  it('takes the namespace owner the platform maps when the instance names none, else says unowned (no invented group)', () => {
    const unowned = instance();
    delete unowned.metadata.annotations;
    const mapped = instanceToEntity({ cluster: 'local', instance: unowned }, 'p', { namespaceOwners: { 'team-a': 'group:default/team-a' } });
    expect(mapped.spec!.owner).toBe('group:default/team-a');
    expect(instanceToEntity({ cluster: 'local', instance: unowned }, 'p').spec!.owner).toBe('unowned');
    // the instance's own owner wins over the namespace's
    expect(instanceToEntity({ cluster: 'local', instance: instance() }, 'p', { namespaceOwners: { 'team-a': 'group:default/x' } }).spec!.owner).toBe('group:default/team-a');
  });
});
