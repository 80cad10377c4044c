import { describe, expect, it } from '@jest/globals';
import { DATABASE_PHASES, type DatabaseEngine } from '@internal/plugin-databases-common';
import { DatabasesApiError } from '../api/DatabasesApiError';
import { explainError } from './explainError';
import { instancePath, matchDatabasesPath } from './databasesPath';
import { phaseStyle } from './phaseStyle';
import {
  engineDefaults,
  RequestFormValues,
  serverErrorsToFields,
  toCreateRequest,
  validateRequest,
} from './requestForm';

const mariadb: DatabaseEngine = {
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseEngine',
  metadata: { name: 'mariadb' },
  spec: {
    engine: 'mariadb',
    operator: 'mariadb-operator',
    capabilityLevel: 4,
    kinds: [],
    topologies: ['standalone', 'replication', 'galera'],
    versions: ['11.4', '10.11'],
  },
  status: { installed: true, instances: 0, phases: {} },
};

const valid: RequestFormValues = {
  cluster: 'dev',
  engine: 'mariadb',
  name: 'orders-db',
  namespace: 'team-a',
  owner: 'group:default/team-a',
  topology: 'galera',
  version: '11.4',
  replicas: '3',
  size: 'small',
  storage: '1Gi',
  cpu: '250m',
  memory: '512Mi',
};

describe('phaseStyle', () => {
  it('gives every phase a style and unknown phases the Unknown one', () => {
    for (const phase of DATABASE_PHASES) expect(phaseStyle(phase).description).not.toBe('');
    expect(phaseStyle('Exploding')).toEqual(phaseStyle('Unknown'));
    expect(phaseStyle(undefined)).toEqual(phaseStyle('Unknown'));
  });
  it.each([
    ['Ready', 'ok', false],
    ['Failed', 'error', false],
    ['Degraded', 'warning', false],
    ['Provisioning', 'running', true],
    ['Updating', 'running', true],
  ])('%s is %s (in progress: %s)', (phase, tone, inProgress) => {
    expect(phaseStyle(phase)).toMatchObject({ tone, inProgress });
  });
});

describe('validateRequest', () => {
  it('accepts a valid request', () => {
    expect(validateRequest(valid, mariadb)).toEqual({});
  });
  it.each<[string, Partial<RequestFormValues>, string]>([
    ['empty name', { name: '' }, 'name'],
    ['upper-case name', { name: 'Orders' }, 'name'],
    ['name ending in -', { name: 'orders-' }, 'name'],
    ['long name', { name: 'a'.repeat(41) }, 'name'],
    ['bad namespace', { namespace: 'Team_A' }, 'namespace'],
    ['no owner', { owner: '' }, 'owner'],
    ['unsupported topology', { topology: 'sentinel' }, 'topology'],
    ['unlisted version', { version: '9.9' }, 'version'],
    ['replicas not a number', { replicas: 'three' }, 'replicas'],
    ['zero replicas', { replicas: '0' }, 'replicas'],
    ['even galera', { replicas: '4' }, 'replicas'],
    ['galera of one', { replicas: '1' }, 'replicas'],
    ['standalone with 2', { topology: 'standalone', replicas: '2' }, 'replicas'],
    ['bad storage', { storage: 'ten gigs' }, 'storage'],
    ['bad cpu', { cpu: '1 core' }, 'cpu'],
    ['bad memory', { memory: '1 GB' }, 'memory'],
  ])('flags %s on the %s field', (_name, change, field) => {
    const errors = validateRequest({ ...valid, ...change }, mariadb);
    expect(Object.keys(errors)).toEqual([field]);
  });
  it('flags an engine whose operator is not installed', () => {
    const errors = validateRequest(valid, { ...mariadb, status: { ...mariadb.status, installed: false } });
    expect(errors.engine).toMatch(/mariadb-operator/);
  });
});

describe('toCreateRequest', () => {
  it('builds the backend request', () => {
    expect(toCreateRequest({ ...valid, entityRef: 'component:default/orders' }, true)).toEqual({
      name: 'orders-db',
      owner: 'group:default/team-a',
      entityRef: 'component:default/orders',
      dryRun: true,
      spec: {
        engine: 'mariadb',
        version: '11.4',
        topology: 'galera',
        replicas: 3,
        storage: { size: '1Gi' },
        resources: { requests: { cpu: '250m', memory: '512Mi' } },
      },
    });
  });
  it('leaves out empty resources and dryRun', () => {
    const request = toCreateRequest({ ...valid, cpu: '', memory: '' }, false);
    expect(request.spec.resources).toBeUndefined();
    expect(request.dryRun).toBeUndefined();
  });
});

describe('serverErrorsToFields', () => {
  it('places causes on fields and keeps the rest general', () => {
    expect(
      serverErrorsToFields([
        { field: 'spec.replicas', message: 'Invalid value: 4: must be odd' },
        { field: '.metadata.name', message: 'already used' },
        { field: 'spec.resources.requests.memory', message: 'too much' },
        { field: 'spec.foo', message: 'unknown' },
        { message: 'quota exceeded' },
      ]),
    ).toEqual({
      replicas: 'Invalid value: 4: must be odd',
      name: 'already used',
      memory: 'too much',
      general: 'spec.foo: unknown quota exceeded',
    });
  });
});

describe('engineDefaults', () => {
  it('prefers the engine defaults', () => {
    expect(engineDefaults({ ...mariadb, spec: { ...mariadb.spec, defaults: { topology: 'replication', replicas: 2, version: '10.11' } } })).toEqual({
      topology: 'replication',
      version: '10.11',
      replicas: '2',
    });
  });
  it('falls back to first topology and version, 3 replicas for quorum topologies', () => {
    expect(engineDefaults({ ...mariadb, spec: { ...mariadb.spec, topologies: ['galera'] } })).toEqual({
      topology: 'galera',
      version: '11.4',
      replicas: '3',
    });
  });
});

describe('matchDatabasesPath', () => {
  it.each([
    ['/databases', '/databases', { view: 'list' }],
    ['/databases/', '/databases', { view: 'list' }],
    ['/databases/request', '/databases/', { view: 'request' }],
    ['/databases/dev/team-a/orders-db', '/databases', { view: 'instance', cluster: 'dev', namespace: 'team-a', name: 'orders-db' }],
    ['/databases/a%20b/ns/n', '/databases', { view: 'instance', cluster: 'a b', namespace: 'ns', name: 'n' }],
    ['/databases/x/y', '/databases', undefined],
    ['/databasesx', '/databases', undefined],
    ['/catalog', '/databases', undefined],
  ])('%s under %s', (pathname, base, expected) => {
    expect(matchDatabasesPath(pathname, base)).toEqual(expected);
  });
  it('round-trips instancePath', () => {
    const ref = { cluster: 'c/1', namespace: 'ns', name: 'n' };
    expect(matchDatabasesPath(instancePath('/db', ref), '/db')).toEqual({ view: 'instance', ...ref });
  });
});

describe('explainError', () => {
  const err = (statusCode: number, message: string, reason?: string, causes: any[] = []) =>
    new DatabasesApiError({ statusCode, message, reason, causes });
  it.each([
    [err(401, 'no token'), /signed out/, /sign in/],
    [err(403, 'user cannot create', 'Forbidden'), /not allowed to create the database/, /grant you access/],
    [err(403, 'admission webhook denied the request: replicas exceed team quota'), /policy refused/, /fit the policy/],
    [err(409, 'exists', 'AlreadyExists'), /name is taken/, /another name/],
    [err(409, 'rv mismatch', 'Conflict'), /changed meanwhile/, /Reload/],
    [err(422, 'invalid', 'Invalid'), /not accepted/, /fields marked/],
    [err(503, 'cluster dev unreachable'), /did not answer/, /platform team/],
    [err(500, 'boom'), /Could not create the database/, /platform team/],
    [new TypeError('Failed to fetch'), /Could not create the database/, /connection/],
  ])('%s', (error, title, action) => {
    const explained = explainError(error, 'create the database');
    expect(explained.title).toMatch(title);
    expect(explained.action).toMatch(action);
    expect(explained.detail).toBe((error as Error).message);
  });
});
