import { describe, expect, it } from '@jest/globals';
import { DATABASE_PHASES, type DatabaseEngine, type DatabaseInstance } from '@internal/plugin-databases-common';
import { makeEngine, makeSize } from '../testUtils/FakeDatabasesApi';
import { DatabasesApiError } from '../api/DatabasesApiError';
import { explainError } from './explainError';
import { instancePath, matchDatabasesPath } from './databasesPath';
import { phaseStyle } from './phaseStyle';
import { formatReplicas } from './format';
import { allowedBoth } from './allowedBoth';
import {
  CUSTOM_SIZE,
  engineDefaults,
  RequestFormValues,
  serverErrorsToFields,
  sizeLabel,
  toCreateRequest,
  validateRequest,
} from './requestForm';

const mariadb: DatabaseEngine = makeEngine('mariadb');

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
  storage: '10Gi',
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
    expect(validateRequest({ ...valid, size: CUSTOM_SIZE, storage: '3Gi', cpu: '', memory: '' }, mariadb)).toEqual({});
  });
  it.each<[string, Partial<RequestFormValues>, string]>([
    ['empty name', { name: '' }, 'name'],
    ['upper-case name', { name: 'Orders' }, 'name'],
    ['name ending in -', { name: 'orders-' }, 'name'],
    ['name longer than the engine allows', { name: 'a'.repeat(53) }, 'name'],
    ['bad namespace', { namespace: 'Team_A' }, 'namespace'],
    ['no owner', { owner: '' }, 'owner'],
    ['unsupported topology', { topology: 'sentinel' }, 'topology'],
    ['unlisted version', { version: '9.9' }, 'version'],
    ['replicas not a number', { replicas: 'three' }, 'replicas'],
    ['zero replicas', { replicas: '0' }, 'replicas'],
    ['even galera', { replicas: '4' }, 'replicas'],
    ['galera of one', { replicas: '1' }, 'replicas'],
    ['standalone with 2', { topology: 'standalone', replicas: '2' }, 'replicas'],
    ['a size the engine does not offer', { size: 'huge' }, 'size'],
    ['bad storage', { storage: 'ten gigs' }, 'storage'],
    ['bad cpu', { cpu: '1 core' }, 'cpu'],
    ['bad memory', { memory: '1 GB' }, 'memory'],
  ])('flags %s on the %s field', (_name, change, field) => {
    const errors = validateRequest({ ...valid, ...change }, mariadb);
    expect(Object.keys(errors)).toEqual([field]);
  });
  it("limits the name to what the engine's operator allows", () => {
    expect(validateRequest({ ...valid, name: 'a'.repeat(52) }, mariadb).name).toBeUndefined();
    expect(validateRequest({ ...valid, name: 'a'.repeat(53) }, mariadb).name).toBe('At most 52 characters for mariadb.');
    expect(validateRequest({ ...valid, name: 'a'.repeat(64) }, undefined).name).toBe('At most 63 characters.');
  });
  it("speaks the engine's replica rule in its own words", () => {
    expect(validateRequest({ ...valid, replicas: '4' }, mariadb).replicas).toBe(
      'galera needs an odd number of replicas, at least 3',
    );
    const stricter = makeEngine('mariadb', true, {
      replicas: { galera: { min: 5, max: 7, odd: true, default: 5, description: 'Galera here runs 5 or 7 members' } },
    });
    for (const [replicas, error] of [
      ['3', 'Galera here runs 5 or 7 members'],
      ['5', undefined],
      ['6', 'Galera here runs 5 or 7 members'],
      ['7', undefined],
      ['9', 'Galera here runs 5 or 7 members'],
    ]) {
      expect([replicas, validateRequest({ ...valid, replicas: replicas! }, stricter).replicas]).toEqual([replicas, error]);
    }
  });
  it('knows no limit of its own: without a rule any whole number from 1 is fine', () => {
    const ruleless = makeEngine('mariadb', true, { replicas: undefined });
    expect(validateRequest({ ...valid, replicas: '12' }, ruleless)).toEqual({});
    expect(validateRequest({ ...valid, replicas: '12' }, undefined).replicas).toBeUndefined();
  });
  it('flags an engine whose operator is not installed', () => {
    const errors = validateRequest(valid, { ...mariadb, status: { ...mariadb.status, installed: false } });
    expect(errors.engine).toMatch(/mariadb-operator/);
  });
});

describe('toCreateRequest', () => {
  it("sends a size as the engine states it, limits included", () => {
    expect(toCreateRequest({ ...valid, entityRef: 'component:default/orders' }, true, mariadb)).toEqual({
      name: 'orders-db',
      owner: 'group:default/team-a',
      entityRef: 'component:default/orders',
      dryRun: true,
      spec: {
        engine: 'mariadb',
        version: '11.4',
        topology: 'galera',
        replicas: 3,
        storage: { size: '10Gi' },
        resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } },
      },
    });
  });
  it('sends a custom size as typed', () => {
    const request = toCreateRequest({ ...valid, size: CUSTOM_SIZE, storage: '3Gi', cpu: '2', memory: '6Gi' }, false, mariadb);
    expect(request.spec.storage).toEqual({ size: '3Gi' });
    expect(request.spec.resources).toEqual({ requests: { cpu: '2', memory: '6Gi' } });
  });
  it('leaves out empty resources and dryRun', () => {
    const request = toCreateRequest({ ...valid, size: CUSTOM_SIZE, cpu: '', memory: '' }, false, mariadb);
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
  it("takes everything from the engine: default topology, its replicas, version and first size", () => {
    expect(engineDefaults(mariadb)).toEqual({
      topology: 'standalone',
      version: '11.4',
      replicas: '1',
      size: 'small',
      storage: '10Gi',
      cpu: '250m',
      memory: '512Mi',
    });
    const engine = makeEngine('mariadb', true, {
      defaults: { topology: 'replication', replicas: 2, version: '10.11' },
      sizes: [makeSize('tiny', '2Gi', '50m', '64Mi')],
    });
    expect(engineDefaults(engine)).toMatchObject({ topology: 'replication', version: '10.11', replicas: '3', size: 'tiny', storage: '2Gi' });
  });
  it('falls back to the first topology and version, the fewest replicas allowed and a custom size', () => {
    const bare = makeEngine('mariadb', true, {
      topologies: ['galera'],
      defaults: undefined,
      sizes: undefined,
      replicas: { galera: { min: 3, odd: true, default: 5, description: 'odd, at least 3' } },
    });
    expect(engineDefaults(bare)).toEqual({
      topology: 'galera',
      version: '11.4',
      replicas: '5',
      size: CUSTOM_SIZE,
      storage: '',
      cpu: '',
      memory: '',
    });
    expect(engineDefaults({ ...bare, spec: { ...bare.spec, replicas: undefined } }).replicas).toBe('1');
  });
  it('labels a size with its numbers', () => {
    expect(sizeLabel(mariadb.spec.sizes![0])).toBe('Small (250m CPU, 512Mi memory, 10Gi storage)');
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

describe('formatReplicas', () => {
  const withReplicas = (replicas?: { desired?: number; ready?: number }, spec?: number) =>
    ({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'orders', namespace: 'team-a' },
      spec: { engine: 'mariadb', ...(spec !== undefined && { replicas: spec }) },
      status: { phase: 'Ready', source: { apiVersion: 'v1', kind: 'X', name: 'orders', operator: 'x' }, ...(replicas && { replicas }) },
    }) as DatabaseInstance;

  it('shows ready/desired', () => {
    expect(formatReplicas(withReplicas({ desired: 3, ready: 3 }))).toBe('3/3');
    expect(formatReplicas(withReplicas({ desired: 3, ready: 0 }))).toBe('0/3');
  });

  it('shows ? for a count the operator does not report, never 0 beside Ready', () => {
    expect(formatReplicas(withReplicas({ desired: 3 }))).toBe('?/3');
    expect(formatReplicas(withReplicas(undefined, 3))).toBe('?/3');
    expect(formatReplicas(withReplicas(undefined))).toBe('');
  });
});

describe('allowedBoth', () => {
  it('offers an action only where the portal and the cluster both allow it; an unanswered cluster leaves the portal alone', () => {
    expect([true, false].flatMap(p => [true, false, undefined].map(c => `${p}/${c}:${allowedBoth({ allowed: p }, c)}`))).toEqual([
      'true/true:true',
      'true/false:false',
      'true/undefined:true',
      'false/true:false',
      'false/false:false',
      'false/undefined:false',
    ]);
  });
});
