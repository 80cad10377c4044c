import { describe, expect, it } from '@jest/globals';
import { MemoryObjectStore } from './MemoryObjectStore';
import { BUILTIN_RESOURCES } from './builtinResources';
import { toTable } from '../api/table';
import { checkFieldSelector, matchesFields, parseFieldSelector } from '../api/fieldSelector';

const JOBS = { group: 'batch', version: 'v1', plural: 'jobs' };
const CRONJOBS = { group: 'batch', version: 'v1', plural: 'cronjobs' };
const def = (plural: string) => BUILTIN_RESOURCES.find(d => d.group === 'batch' && d.plural === plural)!;

describe('batch/v1 Jobs and CronJobs', () => {
  it('stores a Job as kube-apiserver does: generated selector and template labels, defaults, empty status', () => {
    const store = new MemoryObjectStore();
    const job = store.create(JOBS, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'backup', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
      status: { succeeded: 1 },
    });
    const uid = job.metadata.uid;
    expect(job.spec).toMatchObject({
      backoffLimit: 6,
      completions: 1,
      parallelism: 1,
      completionMode: 'NonIndexed',
      suspend: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: {
        metadata: {
          labels: {
            'batch.kubernetes.io/controller-uid': uid,
            'batch.kubernetes.io/job-name': 'backup',
            'controller-uid': uid,
            'job-name': 'backup',
          },
        },
        spec: { restartPolicy: 'Never' },
      },
    });
    expect(job.status).toEqual({});
  });

  it('defaults a CronJob (SetDefaults_CronJob)', () => {
    const store = new MemoryObjectStore();
    const cj = store.create(CRONJOBS, {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', namespace: 'default' },
      spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    });
    expect(cj.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
  });

  it('prints kubectl get jobs columns (printJob)', () => {
    const now = Date.parse('2025-05-01T10:05:00Z');
    const obj = (status: Record<string, unknown>) =>
      ({
        metadata: { name: 'j', uid: 'u', creationTimestamp: '2025-05-01T10:00:00Z' },
        spec: { completions: 1, parallelism: 1 },
        status,
      }) as any;
    const table = toTable(
      def('jobs'),
      [
        obj({ startTime: '2025-05-01T10:00:00Z', active: 1 }),
        obj({
          startTime: '2025-05-01T10:00:00Z',
          completionTime: '2025-05-01T10:00:42Z',
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True' },
            { type: 'Complete', status: 'True' },
          ],
        }),
        obj({ startTime: '2025-05-01T10:00:00Z', failed: 7, conditions: [{ type: 'Failed', status: 'True' }] }),
      ],
      { includeObject: 'None', now },
    ) as any;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name', 'Status', 'Completions', 'Duration', 'Age',
    ]);
    expect(table.rows.map((r: any) => r.cells)).toEqual([
      ['j', 'Running', '0/1', '5m', '5m'],
      ['j', 'Complete', '1/1', '42s', '5m'],
      ['j', 'Failed', '0/1', '5m', '5m'],
    ]);
  });

  it('prints kubectl get cronjobs columns (printCronJob)', () => {
    const now = Date.parse('2025-05-01T10:05:00Z');
    const table = toTable(
      def('cronjobs'),
      [
        {
          metadata: { name: 'nightly', uid: 'u', creationTimestamp: '2025-05-01T10:00:00Z' },
          spec: { schedule: '*/1 * * * *', suspend: false },
          status: { active: [{ name: 'nightly-1' }], lastScheduleTime: '2025-05-01T10:04:00Z' },
        } as any,
      ],
      { includeObject: 'None', now },
    ) as any;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age',
    ]);
    expect(table.rows[0].cells).toEqual(['nightly', '*/1 * * * *', '<none>', 'False', 1, '60s', '5m']);
  });

  it('selects Jobs by status.successful, as JobToSelectableFields allows, and refuses other fields', () => {
    const reqs = parseFieldSelector('status.successful=1');
    expect(() => checkFieldSelector(reqs, JOBS)).not.toThrow();
    expect(matchesFields(reqs, { status: { succeeded: 1 } })).toBe(true);
    expect(matchesFields(parseFieldSelector('status.successful=0'), { status: {} })).toBe(true);
    expect(() => checkFieldSelector(parseFieldSelector('status.active=1'), JOBS)).toThrow(
      'field label not supported: status.active',
    );
    expect(() => checkFieldSelector(reqs, CRONJOBS)).toThrow('is not a known field selector');
  });
});
