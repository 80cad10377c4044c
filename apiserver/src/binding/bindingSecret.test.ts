import { describe, expect, it } from '@jest/globals';
import { BINDING_SECRETS, bindingEntries, desiredBindingSecret, isBindingSecretOf } from './bindingSecret';

const owner = {
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'MariaDB',
  metadata: { name: 'orders-db', namespace: 'team-a', uid: 'u-1' },
};
const instance = { metadata: { name: 'orders-db', namespace: 'team-a' } } as any;
const details = { host: 'orders-db-primary.team-a.svc', port: 3306, username: 'app', password: 'p@ss:/', database: 'orders', uri: 'mysql://app:p%40ss%3A%2F@orders-db-primary.team-a.svc:3306/orders', endpoints: [] };

describe('binding Secrets', () => {
  it('names the entries as the servicebinding.io specification, with a type application frameworks read', () => {
    expect(bindingEntries('mariadb', 'mariadb-operator', details)).toEqual({
      type: 'mysql',
      provider: 'mariadb-operator',
      host: 'orders-db-primary.team-a.svc',
      port: '3306',
      username: 'app',
      password: 'p@ss:/',
      'mariadb-password': 'p@ss:/',
      database: 'orders',
      uri: details.uri,
    });
    expect(bindingEntries('postgresql', 'cloudnative-pg', details)).toMatchObject({ type: 'postgresql', password: 'p@ss:/' });
    expect(bindingEntries('postgresql', 'cloudnative-pg', details)).not.toHaveProperty('mariadb-password');
    // an engine without users or password has no such entries (Redis without auth)
    expect(Object.keys(bindingEntries('redis', 'redis-operator', { host: 'h', port: 6379, uri: 'redis://h:6379', endpoints: [] }))).toEqual(['type', 'provider', 'host', 'port', 'uri']);
  });

  it('is owned by the operator object, typed servicebinding.io/<type>, its values base64', () => {
    const secret = desiredBindingSecret(instance, owner, bindingEntries('mariadb', 'mariadb-operator', details), 'sig');
    expect(secret.metadata).toMatchObject({ name: 'orders-db-binding', namespace: 'team-a', ownerReferences: [{ kind: 'MariaDB', name: 'orders-db', uid: 'u-1' }] });
    expect(secret.type).toBe('servicebinding.io/mysql');
    expect(Buffer.from((secret.data as any).password, 'base64').toString()).toBe('p@ss:/');
    expect(isBindingSecretOf(secret, owner)).toBe(true);
    // a Secret of that name the apiserver did not make, or made for an older object of the name
    expect(isBindingSecretOf({ metadata: { name: 'orders-db-binding' } }, owner)).toBe(false);
    expect(isBindingSecretOf(secret, { ...owner, metadata: { ...owner.metadata, uid: 'u-2' } })).toBe(false);
  });

  it('keeps nothing of a binding Secret\'s values in the projection\'s cache', () => {
    const secret = desiredBindingSecret(instance, owner, bindingEntries('mariadb', 'mariadb-operator', details), 'sig');
    const slim = BINDING_SECRETS.slim!({ ...secret, metadata: { ...secret.metadata, resourceVersion: '7', uid: 's-1' } });
    expect(slim).not.toHaveProperty('data');
    expect(JSON.stringify(slim)).not.toContain(Buffer.from('p@ss:/').toString('base64'));
    expect(isBindingSecretOf(slim, owner)).toBe(true);
  });
});
