import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { primaryCell, readyCell } from './instanceTablePrinter';

const instance = (
  replicas: { desired?: number; ready?: number } | undefined,
  specReplicas?: number,
): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders', namespace: 'team-a' },
  spec: { engine: 'rabbitmq', ...(specReplicas !== undefined && { replicas: specReplicas }) },
  status: { phase: 'Ready', source: { apiVersion: 'v1', kind: 'X', name: 'orders', operator: 'x' }, ...(replicas && { replicas }) },
});

describe('the READY column', () => {
  it('prints ready/desired as a StatefulSet does', () => {
    expect(readyCell(instance({ desired: 3, ready: 2 }))).toBe('2/3');
    expect(readyCell(instance({ desired: 3, ready: 0 }))).toBe('0/3');
  });

  it('prints ?/desired where the operator does not say how many are ready, never 0', () => {
    expect(readyCell(instance({ desired: 3 }))).toBe('?/3');
    expect(readyCell(instance(undefined, 3))).toBe('?/3');
  });

  it('is empty when not even the desired count is known', () => {
    expect(readyCell(instance(undefined))).toBe('');
  });
});

describe('the PRIMARY column (-o wide)', () => {
  const withMembers = (roles: Array<'primary' | 'replica' | 'member'>): DatabaseInstance => {
    const base = instance(undefined);
    return { ...base, status: { ...base.status!, members: roles.map((role, i) => ({ name: `orders-${i}`, role, ready: true })) } };
  };

  it('names the primary, or each shard primary', () => {
    expect(primaryCell(withMembers(['replica', 'primary', 'replica']))).toBe('orders-1');
    expect(primaryCell(withMembers(['primary', 'primary', 'replica']))).toBe('orders-0,orders-1');
  });

  it('is empty where all members are equal or none are known', () => {
    expect(primaryCell(withMembers(['member', 'member']))).toBe('');
    expect(primaryCell(instance(undefined))).toBe('');
  });
});
