import { describe, expect, it } from '@jest/globals';
import { loadCompactCrds } from './loadCompactCrds';
import { compareSchemas } from './compareSchemas';
import { loadUpstreamCrds } from '../operators/__testutils__/upstream';
import { ALL_OPERATORS } from '../operators/allOperators';

const compact = loadCompactCrds();
const upstream = loadUpstreamCrds();

describe('compact CRDs', () => {
  it('covers every kind of every emulated operator, and nothing else', () => {
    // a kind may be in both lists (mariadb-operator's MariaDB: its bootstrap Restore runs with the backups)
    const kinds = [
      ...new Set(ALL_OPERATORS.flatMap(op => [...op.kinds, ...(op.backups?.kinds ?? [])].map(k => `${k.plural}.${k.group}`))),
    ];
    expect(compact.map(c => c.metadata.name).sort()).toEqual(kinds.sort());
    expect(kinds).toEqual(
      expect.arrayContaining([
        'clusters.postgresql.cnpg.io',
        'mariadbs.k8s.mariadb.com',
        // the backup kinds (issue 22)
        'backups.k8s.mariadb.com',
        'mysqlbackups.mysql.oracle.com',
        'backups.postgresql.cnpg.io',
        'scheduledbackups.postgresql.cnpg.io',
        'restores.k8s.mariadb.com',
      ]),
    );
  });

  describe.each(compact.map(c => [c.metadata.name as string, c] as const))(
    '%s',
    (name, ours) => {
      const theirs = upstream.get(name)!;

      it('has an upstream counterpart', () => {
        expect(theirs).toBeDefined();
        expect(ours.apiVersion).toBe('apiextensions.k8s.io/v1');
      });

      it('has the same group, names and scope', () => {
        expect(ours.spec.group).toBe(theirs.spec.group);
        expect(ours.spec.scope).toBe(theirs.spec.scope);
        const pick = (n: any) => ({
          kind: n.kind,
          listKind: n.listKind,
          plural: n.plural,
          singular: n.singular,
          shortNames: n.shortNames ?? [],
          categories: n.categories ?? [],
        });
        expect(pick(ours.spec.names)).toEqual(pick(theirs.spec.names));
      });

      it('serves the same versions, with the same storage version and subresources', () => {
        const served = (crd: any) =>
          crd.spec.versions
            .filter((v: any) => v.served)
            .map((v: any) => v.name)
            .sort();
        expect(served(ours)).toEqual(served(theirs));
        const storage = (crd: any) =>
          crd.spec.versions.find((v: any) => v.storage).name;
        expect(storage(ours)).toBe(storage(theirs));
        for (const v of ours.spec.versions.filter((x: any) => x.served)) {
          const u = theirs.spec.versions.find((x: any) => x.name === v.name);
          expect({
            version: v.name,
            subresources: v.subresources ?? {},
          }).toEqual({
            version: v.name,
            subresources: u.subresources ?? {},
          });
        }
      });

      it('declares only fields upstream has, with the same types', () => {
        for (const v of ours.spec.versions.filter((x: any) => x.served)) {
          const u = theirs.spec.versions.find((x: any) => x.name === v.name);
          expect({
            version: v.name,
            problems: compareSchemas(
              v.schema.openAPIV3Schema,
              u.schema.openAPIV3Schema,
            ),
          }).toEqual({
            version: v.name,
            problems: [],
          });
        }
      });

      it('prints the columns upstream prints (names and paths)', () => {
        for (const v of ours.spec.versions.filter((x: any) => x.served)) {
          const u = theirs.spec.versions.find((x: any) => x.name === v.name);
          const cols = (list: any[] | undefined) =>
            (list ?? []).map(c => `${c.name}=${c.jsonPath.replace(/\s/g, '')}`);
          expect(cols(v.additionalPrinterColumns)).toEqual(
            cols(u.additionalPrinterColumns),
          );
        }
      });
    },
  );
});

describe('compareSchemas', () => {
  const upstreamSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: {
            'x-kubernetes-int-or-string': true,
            anyOf: [{ type: 'integer' }, { type: 'string' }],
          },
          replicas: { type: 'integer' },
          mode: { type: 'string', enum: ['a', 'b'] },
          count: {
            type: 'integer',
            minimum: 1,
            'x-kubernetes-validations': [{ rule: 'self % 2 == 1' }],
          },
          sets: {
            type: 'array',
            items: {
              type: 'object',
              properties: { count: { type: 'integer' } },
            },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          podSpec: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    },
  };
  const spec = (props: Record<string, unknown>) => ({
    type: 'object',
    properties: { spec: { type: 'object', properties: props } },
  });

  it.each([
    [
      'a faithful subset',
      spec({
        replicas: { type: 'integer' },
        size: { 'x-kubernetes-int-or-string': true },
      }),
      [],
    ],
    [
      'a field upstream lacks',
      spec({ version: { type: 'string' } }),
      ['spec.version: declared here but absent upstream'],
    ],
    [
      'a different type',
      spec({ replicas: { type: 'string' } }),
      ['spec.replicas: type string here but integer upstream'],
    ],
    [
      'int-or-string declared as string',
      spec({ size: { type: 'string' } }),
      ['spec.size: type string here but int-or-string upstream'],
    ],
    [
      'an unknown field in array items',
      spec({
        sets: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      }),
      ['spec.sets[].name: declared here but absent upstream'],
    ],
    [
      'a wrong additionalProperties type',
      spec({
        labels: { type: 'object', additionalProperties: { type: 'integer' } },
      }),
      ['spec.labels{}: type integer here but string upstream'],
    ],
    [
      'a field under a preserve-unknown-fields object',
      spec({
        podSpec: {
          type: 'object',
          properties: { containers: { type: 'array' } },
        },
      }),
      [
        'spec.podSpec: prunes unknown fields, upstream keeps them',
        'spec.podSpec.containers: declared here but absent upstream',
      ],
    ],
    [
      'a missing enum, bound or rule',
      spec({ mode: { type: 'string' }, count: { type: 'integer' } }),
      [
        'spec.mode: enum (none) here but ["a","b"] upstream',
        'spec.count: minimum (none) here but 1 upstream',
        'spec.count: x-kubernetes-validations (none) here but [{"rule":"self % 2 == 1"}] upstream',
      ],
    ],
    [
      'a declared object that keeps unknown fields upstream prunes',
      spec({
        sets: {
          type: 'array',
          items: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { count: { type: 'integer' } },
          },
        },
      }),
      ['spec.sets[]: keeps unknown fields, upstream prunes them'],
    ],
    [
      'nothing for an opaque object (declares nothing, keeps everything)',
      spec({
        sets: {
          type: 'array',
          items: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      }),
      [],
    ],
  ])('reports %s', (_name, ours, expected) => {
    expect(compareSchemas(ours, upstreamSchema)).toEqual(expected);
  });
});
