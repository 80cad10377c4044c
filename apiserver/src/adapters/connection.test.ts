import { describe, it, expect } from '@jest/globals';
import type {
  DatabaseInstanceSpec,
  DatabaseTopology,
} from '@internal/plugin-databases-common';
import { toConnection } from '../writes/toConnection';
import { prepareCreate } from '../writes/validateSpec';
import { emptyLookup } from './__testUtils__/schemaDerivedFixtures';
import { adapters, findAdapterForEngine } from './registry';
import type { KubeObject } from './types';

const PASSWORD = 'p@ss:w/rd';
const ENCODED = encodeURIComponent(PASSWORD);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** A Secret as the operator (or this API) writes it: base64 `data`. */
const secret = (name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'team-a' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});

/** Creates `orders` in team-a and returns its operator object, its projection and the adapter. */
function created(engine: string, topology?: DatabaseTopology) {
  const result = prepareCreate(
    {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'orders', namespace: 'team-a' },
      spec: { engine, topology } as DatabaseInstanceSpec,
    },
    adapters,
  );
  if (!('instance' in result)) throw new Error(JSON.stringify(result.causes));
  const adapter = findAdapterForEngine(engine)!;
  const write = adapter.write!;
  const source = write.toOperatorObject(result.instance);
  const instance = adapter.project(
    source,
    write.kindFor(result.instance.spec.topology!),
    emptyLookup,
  );
  return { write, source, instance };
}

describe('connection details from the operator secret', () => {
  it.each<
    [
      string,
      DatabaseTopology | undefined,
      (name: string) => KubeObject,
      string,
      Record<string, unknown>,
    ]
  >([
    [
      'mariadb',
      'standalone',
      n => secret(n, { password: PASSWORD }),
      'orders-root',
      {
        host: 'orders.team-a.svc',
        port: 3306,
        username: 'root',
        uri: `mysql://root:${ENCODED}@orders.team-a.svc:3306/`,
      },
    ],
    [
      'mariadb',
      'galera',
      n => secret(n, { password: PASSWORD }),
      'orders-root',
      {
        host: 'orders-primary.team-a.svc',
        port: 3306,
        username: 'root',
        uri: `mysql://root:${ENCODED}@orders-primary.team-a.svc:3306/`,
      },
    ],
    [
      'mysql',
      undefined,
      n =>
        secret(n, { rootUser: 'admin', rootHost: '%', rootPassword: PASSWORD }),
      'orders-root',
      {
        host: 'orders.team-a.svc',
        port: 6446,
        username: 'admin',
        uri: `mysql://admin:${ENCODED}@orders.team-a.svc:6446/`,
      },
    ],
    [
      'redis',
      'standalone',
      n => secret(n, { password: PASSWORD }),
      'orders-password',
      {
        host: 'orders.team-a.svc',
        port: 6379,
        username: 'default',
        uri: `redis://default:${ENCODED}@orders.team-a.svc:6379`,
      },
    ],
    [
      'redis',
      'replication',
      n => secret(n, { password: PASSWORD }),
      'orders-password',
      {
        host: 'orders-master.team-a.svc',
        port: 6379,
        uri: `redis://default:${ENCODED}@orders-master.team-a.svc:6379`,
      },
    ],
    [
      'redis',
      'cluster',
      n => secret(n, { password: PASSWORD }),
      'orders-password',
      { host: 'orders-leader.team-a.svc', port: 6379 },
    ],
    [
      'elasticsearch',
      undefined,
      n => secret(n, { elastic: PASSWORD }),
      'orders-es-elastic-user',
      {
        host: 'orders-es-http.team-a.svc',
        port: 9200,
        username: 'elastic',
        uri: `https://elastic:${ENCODED}@orders-es-http.team-a.svc:9200`,
      },
    ],
    [
      'rabbitmq',
      undefined,
      n =>
        secret(n, {
          username: 'default_user_x1',
          password: PASSWORD,
          host: 'orders.team-a.svc',
          port: '5672',
        }),
      'orders-default-user',
      {
        host: 'orders.team-a.svc',
        port: 5672,
        username: 'default_user_x1',
        uri: `amqp://default_user_x1:${ENCODED}@orders.team-a.svc:5672/%2F`,
      },
    ],
  ])('%s %s', (engine, topology, makeSecret, secretName, expected) => {
    const { write, source, instance } = created(engine, topology);
    expect(write.connectionSecretName(source)).toBe(secretName);
    const details = write.connection(instance, source, makeSecret(secretName));
    expect(details).toMatchObject({
      ...expected,
      password: PASSWORD,
      secretRef: { name: secretName },
    });
    // Every endpoint the instance reports is offered, each with its own URI.
    expect(details.endpoints.map(e => e.name)).toEqual(
      instance.status!.endpoints!.map(e => e.name),
    );
    for (const e of details.endpoints) expect(e.uri).toMatch(/^[a-z]+:\/\//);
  });

  it("gives MySQL Router's read-only port as the readonly endpoint", () => {
    const { write, source, instance } = created('mysql');
    const details = write.connection(
      instance,
      source,
      secret('orders-root', { rootPassword: 'x' }),
    );
    expect(details.endpoints.find(e => e.name === 'readonly')).toMatchObject({
      port: 6447,
    });
  });

  it('offers the embedded Sentinel of a redis sentinel instance', () => {
    const { write, source, instance } = created('redis', 'sentinel');
    const details = write.connection(
      instance,
      source,
      secret('orders-password', { password: 'x' }),
    );
    expect(details.host).toBe('orders-master.team-a.svc');
    expect(details.endpoints.find(e => e.name === 'sentinel')).toMatchObject({
      host: 'orders-s-hl.team-a.svc',
      port: 26379,
    });
  });

  it("gives RabbitMQ's management endpoint an http URI", () => {
    const { write, source, instance } = created('rabbitmq');
    const details = write.connection(
      instance,
      source,
      secret('orders-default-user', { username: 'u', password: 'p' }),
    );
    expect(details.endpoints.find(e => e.name === 'management')?.uri).toBe(
      'http://u:p@orders.team-a.svc:15672',
    );
  });

  it('has no password for a Redis without a password Secret', () => {
    const { write, source, instance } = created('redis');
    delete source.spec.kubernetesConfig.redisSecret;
    expect(write.connectionSecretName(source)).toBeUndefined();
    const details = write.connection(instance, source, undefined);
    expect(details.password).toBeUndefined();
    expect(details.username).toBeUndefined();
    expect(details.uri).toBe('redis://orders.team-a.svc:6379');
  });

  it('has no password while the Secret does not exist, but names it', () => {
    const { write, source, instance } = created('elasticsearch');
    const details = write.connection(instance, source, undefined);
    expect(details.password).toBeUndefined();
    expect(details.secretRef).toEqual({ name: 'orders-es-elastic-user' });
  });

  it('reads stringData as well as data', () => {
    const { write, source, instance } = created('mariadb');
    const details = write.connection(instance, source, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'orders-root' },
      stringData: { password: 'plain' },
    });
    expect(details.password).toBe('plain');
  });

  it('follows a root password Secret the object names itself', () => {
    const { write, source, instance } = created('mariadb');
    source.spec.rootPasswordSecretKeyRef = {
      name: 'shared',
      key: 'root-password',
    };
    expect(write.connectionSecretName(source)).toBe('shared');
    const details = write.connection(
      instance,
      source,
      secret('shared', { 'root-password': 'r' }),
    );
    expect(details.password).toBe('r');
  });

  it('wraps details into the DatabaseInstanceConnection wire object', () => {
    const { write, source, instance } = created('rabbitmq');
    const wire = toConnection(
      instance,
      write.connection(
        instance,
        source,
        secret('orders-default-user', { username: 'u', password: 'p' }),
      ),
    );
    expect(wire).toMatchObject({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceConnection',
      metadata: { name: 'orders', namespace: 'team-a' },
      engine: 'rabbitmq',
      username: 'u',
      password: 'p',
    });
  });
});

describe('secrets to create', () => {
  it.each([
    ['mysql', 'orders-root', ['rootHost', 'rootPassword', 'rootUser']],
    ['redis', 'orders-password', ['password']],
  ])('%s needs %s before the operator can start', (engine, name, keys) => {
    const { write, instance, source } = created(engine);
    const secrets = write.secretsToCreate(instance, () => 'generated');
    expect(secrets.map(s => s.metadata?.name)).toEqual([name]);
    expect(Object.keys(secrets[0].stringData as object).sort()).toEqual(keys);
    // The operator object points at the very Secret created for it.
    expect(write.connectionSecretName(source)).toBe(name);
    const details = write.connection(instance, source, secrets[0]);
    expect(details.password).toBe('generated');
  });

  it.each(['mariadb', 'elasticsearch', 'rabbitmq'])(
    '%s generates its own credentials',
    engine => {
      const { write, instance } = created(engine);
      expect(write.secretsToCreate(instance, () => 'x')).toEqual([]);
    },
  );

  it('lets mariadb-operator generate the root password', () => {
    const { source } = created('mariadb');
    expect(source.spec.rootPasswordSecretKeyRef).toMatchObject({
      generate: true,
    });
  });
});

describe('connection details before the status lists any endpoint', () => {
  // An object the operator has not reported on yet (or adopted with no status): the details
  // fall back to the Service every operator creates under the object's name.
  it.each<[string, string, Record<string, unknown>]>([
    [
      'mariadb',
      'orders-root',
      {
        host: 'orders.team-a.svc',
        port: 3306,
        uri: `mysql://root:${ENCODED}@orders.team-a.svc:3306/`,
        endpoints: [
          expect.objectContaining({
            name: 'primary',
            host: 'orders.team-a.svc',
          }),
        ],
      },
    ],
    [
      'mysql',
      'orders-root',
      {
        host: 'orders.team-a.svc',
        port: 6446,
        endpoints: [expect.objectContaining({ name: 'primary', port: 6446 })],
      },
    ],
    [
      'redis',
      'orders-password',
      {
        host: 'orders.team-a.svc',
        port: 6379,
        uri: `redis://default:${ENCODED}@orders.team-a.svc:6379`,
        endpoints: [expect.objectContaining({ name: 'primary', port: 6379 })],
      },
    ],
    [
      'elasticsearch',
      'orders-es-elastic-user',
      {
        host: 'orders-es-http.team-a.svc',
        port: 9200,
        uri: `https://elastic:${ENCODED}@orders-es-http.team-a.svc:9200`,
        endpoints: [expect.objectContaining({ name: 'http', port: 9200 })],
      },
    ],
    [
      'rabbitmq',
      'orders-default-user',
      {
        host: 'orders.team-a.svc',
        port: 5672,
        uri: `amqp://guest:${ENCODED}@orders.team-a.svc:5672/%2F`,
        endpoints: [
          expect.objectContaining({ name: 'amqp', host: 'orders.team-a.svc' }),
        ],
      },
    ],
  ])(
    '%s: the Service named after the object',
    (engine, secretName, expected) => {
      const { write, source, instance } = created(engine);
      delete instance.status;
      const data = {
        password: PASSWORD,
        rootPassword: PASSWORD,
        rootUser: 'root',
        elastic: PASSWORD,
        username: 'guest',
      };
      const details = write.connection(
        instance,
        source,
        secret(secretName, data),
      );
      expect(details).toMatchObject({ ...expected, password: PASSWORD });
      expect(details.endpoints).toHaveLength(1);
    },
  );
});
