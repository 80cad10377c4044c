import { describe, expect, it } from '@jest/globals';
import { StatusError } from '../server/StatusError';
import { PolicySource } from './PolicySource';
import type { Policy } from './types';

/** A ConfigMap the test edits: data, absent (undefined) or an error thrown by the read. */
function fakeConfigMap() {
  const state: {
    data?: Record<string, string>;
    error?: unknown;
    reads: number;
  } = { reads: 0 };
  const read = async () => {
    state.reads++;
    if (state.error) throw state.error;
    return state.data;
  };
  return { state, read };
}

function recordingLogger() {
  const lines: Array<{
    level: string;
    message: string;
    fields?: Record<string, unknown>;
  }> = [];
  return {
    lines,
    info: (message: string, fields?: Record<string, unknown>) =>
      lines.push({ level: 'info', message, fields }),
    warn: (message: string, fields?: Record<string, unknown>) =>
      lines.push({ level: 'warn', message, fields }),
  };
}

const ruleNames = (p: Policy | undefined) => p?.rules.map(r => r.name);
const yaml = (name: string) => ({
  'policy.yaml': `rules:\n  - { name: ${name}, namespaces: [team-a], max: { instances: 1 } }`,
});
const CM = 'dbaas-system/dbaas-policy';

describe('PolicySource', () => {
  it('means no limits when the ConfigMap does not exist', async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({ read: cm.read, configMap: CM });
    expect(await source.refresh()).toBe(true);
    expect(source.current()).toEqual({ rules: [] });
    expect(source.require()).toEqual({ rules: [] });
    expect(source.problems()).toEqual([]);
  });

  it('keeps the last good policy on bad YAML, reports it for /readyz and logs it once', async () => {
    const cm = fakeConfigMap();
    const logger = recordingLogger();
    const source = new PolicySource({ read: cm.read, configMap: CM, logger });
    cm.state.data = yaml('first');
    await source.refresh();
    expect(ruleNames(source.current())).toEqual(['first']);

    cm.state.data = {
      'policy.yaml':
        'rules:\n  - { name: second, namespaces: [team-a], max: { cpu: lots } }',
    };
    expect(await source.refresh()).toBe(false);
    expect(await source.refresh()).toBe(false);
    expect(ruleNames(source.current())).toEqual(['first']);
    expect(source.problems()).toEqual([
      'ConfigMap dbaas-system/dbaas-policy: policy.yaml: rules[0].max.cpu: "lots" is not a quantity (e.g. 500m, 4, 16Gi)',
    ]);
    const warnings = logger.lines.filter(l => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toBe(
      'Policy not loaded (keeping the last good policy)',
    );
    expect(warnings[0].fields).toMatchObject({
      configMap: CM,
      errors: source.problems(),
    });

    cm.state.data = { 'policy.yaml': 'rules: [' };
    await source.refresh();
    expect(source.problems()[0]).toMatch(
      /^ConfigMap dbaas-system\/dbaas-policy: policy\.yaml: invalid YAML at line/,
    );
    expect(logger.lines.filter(l => l.level === 'warn')).toHaveLength(2);

    cm.state.data = yaml('third');
    expect(await source.refresh()).toBe(true);
    expect(ruleNames(source.current())).toEqual(['third']);
    expect(source.problems()).toEqual([]);
    expect(logger.lines.map(l => l.message)).toContain(
      'Policy problems resolved',
    );
  });

  it("keeps the last good policy when the ConfigMap cannot be read, with the API server's words", async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({ read: cm.read, configMap: CM });
    cm.state.data = yaml('first');
    await source.refresh();
    cm.state.error = Object.assign(
      new Error('HTTP-Code: 403\nMessage: ...\nHeaders: {...}'),
      {
        code: 403,
        body: {
          kind: 'Status',
          message:
            'configmaps "dbaas-policy" is forbidden: User "system:serviceaccount:dbaas-system:apiserver" cannot get resource "configmaps"',
        },
      },
    );
    expect(await source.refresh()).toBe(false);
    expect(ruleNames(source.current())).toEqual(['first']);
    expect(source.problems()).toEqual([
      'cannot read ConfigMap dbaas-system/dbaas-policy: HTTP 403: configmaps "dbaas-policy" is forbidden: User "system:serviceaccount:dbaas-system:apiserver" cannot get resource "configmaps"',
    ]);
    cm.state.error = undefined;
    expect(await source.refresh()).toBe(true);
    expect(source.problems()).toEqual([]);
  });

  it('drops every limit when the ConfigMap is deleted', async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({ read: cm.read, configMap: CM });
    cm.state.data = yaml('first');
    await source.refresh();
    cm.state.data = undefined;
    await source.refresh();
    expect(source.current()).toEqual({ rules: [] });
  });

  it('refuses to hand out a policy (503) until one has been loaded', async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({ read: cm.read, configMap: CM });
    expect(source.current()).toBeUndefined();
    expect(source.problems()).toEqual([
      'policy dbaas-system/dbaas-policy not loaded yet',
    ]);
    cm.state.data = { 'policy.yaml': 'rules: 1' };
    await source.refresh();
    expect(source.current()).toBeUndefined();
    let thrown: unknown;
    try {
      source.require();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(StatusError);
    expect((thrown as StatusError).status).toMatchObject({
      code: 503,
      reason: 'ServiceUnavailable',
      message:
        'policy dbaas-system/dbaas-policy is not loaded yet: ConfigMap dbaas-system/dbaas-policy: policy.yaml: rules: must be array',
    });
  });

  it('tells listeners about changes only', async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({ read: cm.read, configMap: CM });
    const seen: string[][] = [];
    source.onChange(p => seen.push(ruleNames(p)!));
    cm.state.data = yaml('a');
    await source.refresh();
    await source.refresh();
    cm.state.data = yaml('b');
    await source.refresh();
    expect(seen).toEqual([['a'], ['b']]);
  });

  it('applies changes without restart by re-reading periodically, until stopped', async () => {
    const cm = fakeConfigMap();
    const source = new PolicySource({
      read: cm.read,
      configMap: CM,
      refreshIntervalMs: 10,
    });
    cm.state.data = yaml('a');
    expect(await source.start()).toBe(true);
    try {
      cm.state.data = yaml('b');
      const deadline = Date.now() + 5000;
      while (
        ruleNames(source.current())?.[0] !== 'b' &&
        Date.now() < deadline
      ) {
        await new Promise(r => setTimeout(r, 5));
      }
      expect(ruleNames(source.current())).toEqual(['b']);
    } finally {
      source.stop();
    }
    const reads = cm.state.reads;
    await new Promise(r => setTimeout(r, 50));
    expect(cm.state.reads).toBe(reads);
  });
});
