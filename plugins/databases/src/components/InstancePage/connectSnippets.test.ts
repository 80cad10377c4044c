import { describe, expect, it } from '@jest/globals';
import { connectSnippets } from './connectSnippets';

const instance = (engine: string, binding?: string) =>
  ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name: 'orders-db', namespace: 'team-a' },
    spec: { engine },
    status: {
      phase: 'Ready',
      source: { apiVersion: 'v1', kind: 'X', name: 'orders-db', operator: 'op' },
      endpoints: [{ name: 'primary', host: 'orders-db-primary.team-a.svc', port: 3306 }],
      ...(binding && { binding: { name: binding } }),
    },
  }) as any;

describe('connectSnippets', () => {
  it('has none before the binding Secret exists', () => {
    expect(connectSnippets(instance('mariadb'))).toEqual([]);
  });

  it('reads every value from the binding Secret and carries no credential', () => {
    const snippets = connectSnippets(instance('mariadb', 'orders-db-binding'));
    expect(snippets.map(s => s.id)).toEqual(['env', 'wordpress', 'uri', 'servicebinding']);
    const env = snippets.find(s => s.id === 'env')!.text;
    for (const key of ['host', 'port', 'username', 'password', 'uri']) expect(env).toContain(`key: ${key}`);
    expect(env.match(/name: orders-db-binding/g)).toHaveLength(5);
    const wordpress = snippets.find(s => s.id === 'wordpress')!.text;
    expect(wordpress).toMatch(/existingSecret: orders-db-binding/);
    expect(wordpress).toMatch(/host: orders-db-primary\.team-a\.svc\n {2}port: 3306/);
    expect(snippets.find(s => s.id === 'uri')!.text).toContain('jdbc:mysql://orders-db-primary.team-a.svc:3306/');
    expect(snippets.find(s => s.id === 'servicebinding')!.text).toMatch(/kind: DatabaseInstance\n {4}name: orders-db/);
  });

  it('gives WordPress only to MySQL-protocol engines, JDBC only where there is a driver, and a Redis password as optional', () => {
    const redis = connectSnippets(instance('redis', 'cache-binding'));
    expect(redis.map(s => s.id)).toEqual(['env', 'uri', 'servicebinding']);
    expect(redis.find(s => s.id === 'uri')!.text).not.toContain('jdbc:');
    expect(redis.find(s => s.id === 'env')!.text).toMatch(/key: password\n {6}optional: true/);
    expect(redis.find(s => s.id === 'env')!.text).not.toContain('key: username');
    expect(connectSnippets(instance('postgresql', 'pg-binding')).find(s => s.id === 'env')!.text).toContain('key: database');
  });
});
