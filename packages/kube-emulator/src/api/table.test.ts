import { describe, expect, it } from '@jest/globals';
import type { ResourceDefinition } from '../store/types';
import { evaluateJsonPath } from './jsonPath';
import { humanDuration, toTable } from './table';

describe('humanDuration', () => {
  const s = 1000;
  it.each([
    [-5 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * 60 * s, '2m'],
    [(5 * 60 + 12) * s, '5m12s'],
    [179 * 60 * s, '179m'],
    [(3 * 60 + 30) * 60 * s, '3h30m'],
    [47 * 3600 * s, '47h'],
    [(3 * 24 + 5) * 3600 * s, '3d5h'],
    [400 * 24 * 3600 * s, '400d'],
    [(3 * 365 + 10) * 24 * 3600 * s, '3y10d'],
    [9 * 365 * 24 * 3600 * s, '9y'],
  ])('%d ms → %s', (ms, expected) => expect(humanDuration(ms)).toBe(expected));
});

describe('evaluateJsonPath', () => {
  const obj = {
    spec: { replicas: 3, 'dotted.key': 'x' },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', message: 'ok' },
        { type: 'ReconcileSuccess', status: 'False' },
      ],
    },
  };
  it.each([
    ['.spec.replicas', [3]],
    ["{.spec['dotted.key']}", ['x']],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    [".status.conditions[?(@.type == 'ReconcileSuccess')].status", ['False']],
    ['.status.conditions[1].type', ['ReconcileSuccess']],
    ['.status.conditions[*].type', ['Ready', 'ReconcileSuccess']],
    ['.status.missing', []],
  ])('%s', (path, expected) =>
    expect(evaluateJsonPath(obj, path)).toEqual(expected),
  );
});

describe('toTable', () => {
  const def: ResourceDefinition = {
    group: 'k8s.mariadb.com',
    version: 'v1alpha1',
    plural: 'mariadbs',
    kind: 'MariaDB',
    listKind: 'MariaDBList',
    singular: 'mariadb',
    namespaced: true,
    statusSubresource: true,
    printerColumns: [
      {
        name: 'Ready',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Ready")].status',
      },
      {
        name: 'Replicas',
        type: 'integer',
        jsonPath: '.spec.replicas',
        priority: 1,
      },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  };
  const obj = {
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'MariaDB',
    metadata: {
      name: 'db',
      namespace: 'a',
      uid: 'u',
      resourceVersion: '5',
      creationTimestamp: '2025-05-01T10:00:00Z',
    },
    spec: { replicas: 3 },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };

  it('renders Name plus the printer columns, with dates as ages and metadata objects', () => {
    const table = toTable(def, [obj], {
      includeObject: 'Metadata',
      now: Date.parse('2025-05-01T10:05:12Z'),
    }) as any;
    expect(
      table.columnDefinitions.map((c: any) => [c.name, c.priority]),
    ).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Replicas', 1],
      ['Age', 0],
    ]);
    expect(table.columnDefinitions[0].format).toBe('name');
    expect(table.rows[0].cells).toEqual(['db', 'True', 3, '5m12s']);
    expect(table.rows[0].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: obj.metadata,
    });
  });

  it('honours includeObject and gives kinds without columns Name and Age', () => {
    const plain = { ...def, printerColumns: undefined };
    const table = toTable(plain, [obj], {
      includeObject: 'None',
      now: Date.parse('2025-05-01T11:00:00Z'),
    }) as any;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Age',
    ]);
    expect(table.rows).toEqual([{ cells: ['db', '60m'] }]);
    expect(
      (toTable(plain, [obj], { includeObject: 'Object' }) as any).rows[0]
        .object,
    ).toBe(obj);
  });
});
