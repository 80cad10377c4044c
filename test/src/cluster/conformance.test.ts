import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { eventually } from '../support/eventually';
import { parseTable, watchOneArgs } from '../support/kubectl';
import { chooseTarget } from './chooseTarget';
import { ENGINE_CASES, type EngineCase } from './engineCases';
import type { Kubectl } from './Kubectl';
import { openCluster, type ConformanceCluster } from './openCluster';
import {
  cleanUpCluster,
  prepareCluster,
  type PreparedCluster,
} from './prepareCluster';
import { readManifest, sampleIn } from './upstream';
import { ROTATION_MS, runBinding } from './bindingCase';
import { runSwitchover, SWITCHOVER_CASES } from './switchoverCases';
import { runBackups } from './backupCases';
import { runMysqlSchedule, runSchedules } from './scheduleCases';
import { runFailedDumpLoad, runFailedMariadbRestore, runRestore } from './restoreCases';

/*
 * The conformance suite: what a user of a real cluster sees through kube-apiserver, checked with
 * kubectl only. The normal test run points it at the emulator; `yarn test:cluster` at $KUBECONFIG
 * (docs/conformance.md). It needs no operator running: it writes the operators' statuses itself.
 */

const GROUP = 'dbaas.platform.dev';
const VERSION = 'v1alpha1';
const ENGINE_LABEL = 'conformance.dbaas.platform.dev/engine';
/** On the copies the Pending cases create beside the samples. */
const COPY_LABEL = 'conformance.dbaas.platform.dev/copy-of';
/** One kubectl call against a remote cluster can take a few seconds; a test makes a handful. */
const STEP = 60_000;
/** Every engine the suite exercises (selectors are checked against this, not a list of ours). */
const ALL_ENGINES = ENGINE_CASES.map(c => c.engine);

const choice = chooseTarget(process.env);

if (choice.kind === 'skip') {
  describe('DatabaseInstance conformance against $KUBECONFIG', () => {
    // eslint-disable-next-line jest/no-disabled-tests, jest/expect-expect
    it.skip(`is skipped: ${choice.reason}`, () => {});
  });
} else {
  describe(`DatabaseInstance conformance (${choice.kind})`, () => {
    let cluster: ConformanceCluster;
    let prepared: PreparedCluster;
    let kubectl: Kubectl;
    let ns = '';
    const samples = new Map<string, Record<string, any>>();

    beforeAll(async () => {
      cluster = await openCluster(choice);
      kubectl = cluster.kubectl;
      prepared = await prepareCluster(
        kubectl,
        ENGINE_CASES.map(c => c.operatorDir),
        ENGINE_CASES.map(c => c.engine),
      );
      ns = prepared.namespace;
      for (const c of ENGINE_CASES)
        samples.set(
          c.engine,
          sampleIn(readManifest(c.sampleFile), ns, {
            [ENGINE_LABEL]: c.engine,
          }),
        );
    }, 180_000);

    afterAll(async () => {
      if (prepared) await cleanUpCluster(kubectl, prepared);
      await cluster?.close();
    }, 300_000);

    const nameOf = (c: EngineCase): string =>
      samples.get(c.engine)!.metadata.name;
    const patchStatus = (c: EngineCase, status: Record<string, unknown>) =>
      kubectl.ok([
        'patch',
        c.resource,
        nameOf(c),
        '-n',
        ns,
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify({ status }),
      ]);
    const waitForPhase = (name: string, phase: string) =>
      kubectl.run([
        'wait',
        '-n',
        ns,
        `databaseinstance/${name}`,
        `--for=jsonpath={.status.phase}=${phase}`,
        '--timeout=30s',
      ]);
    /**
     * Each engine's sample, created and patched to its operator's ready shape, once, by whichever
     * case needs it first: the cases pass alone and in any order (jest --randomize).
     */
    const readyOnce = new Map<
      string,
      Promise<{ code: number; stderr: string }>
    >();
    const ready = (c: EngineCase) => {
      if (!readyOnce.has(c.engine))
        readyOnce.set(
          c.engine,
          (async () => {
            await kubectl.ok(
              ['create', '-f', '-'],
              JSON.stringify(samples.get(c.engine)),
            );
            // kubectl wait answers NotFound at once while the instance is not projected yet
            await eventually(
              async () =>
                (await kubectl.run(['get', 'dbi', nameOf(c), '-n', ns]))
                  .code === 0
                  ? true
                  : undefined,
              `databaseinstance ${nameOf(c)}`,
            );
            await patchStatus(c, c.readyStatus(samples.get(c.engine)!));
            return waitForPhase(nameOf(c), 'Ready');
          })(),
        );
      return readyOnce.get(c.engine)!;
    };
    const allReady = () => Promise.all(ENGINE_CASES.map(ready));

    describe('registration and discovery', () => {
      it(
        `APIService ${VERSION}.${GROUP} is Available`,
        async () => {
          const apiService = await kubectl.json([
            'get',
            'apiservice',
            `${VERSION}.${GROUP}`,
          ]);
          expect(apiService.spec).toMatchObject({
            group: GROUP,
            version: VERSION,
          });
          const available = apiService.status.conditions.find(
            (c: any) => c.type === 'Available',
          );
          expect(available).toMatchObject({ status: 'True' });
        },
        STEP,
      );

      it(
        'api-resources lists databaseinstances (dbi, namespaced), databasebackups (dbb, namespaced), databasebackupschedules (dbbs, namespaced) and databaseengines (cluster-scoped)',
        async () => {
          const rows = parseTable(
            await kubectl.ok(['api-resources', `--api-group=${GROUP}`]),
          );
          expect(rows.map(r => r.NAME).sort()).toEqual([
            'databasebackups',
            'databasebackupschedules',
            'databaseengines',
            'databaseinstances',
          ]);
          expect(rows.find(r => r.NAME === 'databaseinstances')).toMatchObject({
            SHORTNAMES: 'dbi',
            NAMESPACED: 'true',
            KIND: 'DatabaseInstance',
          });
          expect(rows.find(r => r.NAME === 'databaseengines')).toMatchObject({
            NAMESPACED: 'false',
            KIND: 'DatabaseEngine',
          });
          expect(rows.find(r => r.NAME === 'databasebackups')).toMatchObject({
            SHORTNAMES: 'dbb',
            NAMESPACED: 'true',
            KIND: 'DatabaseBackup',
          });
          expect(rows.find(r => r.NAME === 'databasebackupschedules')).toMatchObject({
            SHORTNAMES: 'dbbs',
            NAMESPACED: 'true',
            KIND: 'DatabaseBackupSchedule',
          });
        },
        STEP,
      );

      it(
        'the APIResourceList advertises every verb, the status and connection subresources and the category',
        async () => {
          const list = JSON.parse(
            await kubectl.ok(['get', '--raw', `/apis/${GROUP}/${VERSION}`]),
          );
          expect(list).toMatchObject({
            kind: 'APIResourceList',
            groupVersion: `${GROUP}/${VERSION}`,
          });
          const byName = new Map<string, any>(
            list.resources.map((r: any) => [r.name, r]),
          );
          expect([...byName.get('databaseinstances').verbs].sort()).toEqual([
            'create',
            'delete',
            'deletecollection',
            'get',
            'list',
            'patch',
            'update',
            'watch',
          ]);
          expect(byName.get('databaseinstances')).toMatchObject({
            namespaced: true,
            kind: 'DatabaseInstance',
            categories: expect.arrayContaining(['databases']),
          });
          expect(byName.get('databaseinstances/status')?.verbs).toContain(
            'get',
          );
          expect(byName.get('databaseinstances/connection')?.verbs).toEqual([
            'get',
          ]);
          expect(byName.get('databaseinstances/diagnosis')).toMatchObject({
            kind: 'DatabaseInstanceDiagnosis',
            verbs: ['get'],
          });
          expect(byName.get('databaseengines')).toMatchObject({
            namespaced: false,
            kind: 'DatabaseEngine',
          });
          // Engines describe the cluster's operators: readable by all, written by nobody.
          expect(byName.get('databaseengines').verbs).toEqual(
            expect.arrayContaining(['get', 'list']),
          );
          for (const write of ['create', 'update', 'patch', 'delete'])
            expect(byName.get('databaseengines').verbs).not.toContain(write);
        },
        STEP,
      );

      it(
        'kubectl explain documents the spec and every phase of the lifecycle (OpenAPI through the aggregator)',
        async () => {
          const spec = await kubectl.ok(['explain', 'databaseinstance.spec']);
          expect(spec).toMatch(/KIND:\s+DatabaseInstance/);
          expect(spec).toMatch(
            new RegExp(
              `(GROUP:\\s+${GROUP.replace(/\./g, '\\.')}|VERSION:\\s+${GROUP.replace(/\./g, '\\.')}/${VERSION})`,
            ),
          );
          for (const field of [
            'engine',
            'version',
            'topology',
            'replicas',
            'storage',
          ])
            expect(spec).toMatch(new RegExp(`\\b${field}\\s+<`));
          const phase = await kubectl.ok([
            'explain',
            'databaseinstance.status.phase',
          ]);
          expect(phase).toMatch(/phase\s+<string>/);
          for (const p of DATABASE_PHASES) expect(phase).toContain(p);
        },
        STEP,
      );

      it(
        'databaseengines reports every operator installed, with its kinds served',
        async () => {
          const engines = await kubectl.json(['get', 'databaseengines']);
          for (const c of ENGINE_CASES) {
            const engine = engines.items.find(
              (e: any) => e.metadata.name === c.engine,
            );
            expect(engine).toMatchObject({
              kind: 'DatabaseEngine',
              spec: { engine: c.engine },
              status: { installed: true },
            });
            expect(engine.spec.kinds.map((k: any) => k.kind)).toContain(c.kind);
          }
        },
        STEP,
      );
    });

    /** A copy of the MariaDB sample under `name`, served as a DatabaseInstance, deleted after `body`. */
    async function withMariadbCopy(
      prefix: string,
      body: (c: EngineCase, name: string, sample: any) => Promise<void>,
    ) {
      const c = ENGINE_CASES.find(e => e.engine === 'mariadb')!;
      const sample = samples.get(c.engine)!;
      const name = `${prefix}-${nameOf(c)}`.slice(0, 40);
      const { [ENGINE_LABEL]: _engine, ...labels } = sample.metadata.labels;
      await kubectl.ok(
        ['create', '-f', '-'],
        JSON.stringify({
          ...sample,
          metadata: { ...sample.metadata, name, labels: { ...labels, [COPY_LABEL]: c.engine } },
        }),
      );
      try {
        await eventually(
          async () => ((await kubectl.run(['get', 'dbi', name, '-n', ns])).code === 0 ? true : undefined),
          `databaseinstance ${name}`,
        );
        await body(c, name, sample);
      } finally {
        await kubectl.ok(['delete', c.resource, name, '-n', ns, '--timeout=30s']);
      }
    }
    /** The operator's ready shape with its Ready condition turned False for `reason`. */
    const notReadyWith = (c: EngineCase, sample: any, reason: string, message: string) => {
      const readyShape = c.readyStatus(sample) as { conditions?: Array<Record<string, unknown>> };
      return {
        ...readyShape,
        conditions: (readyShape.conditions ?? []).map(k =>
          k.type === 'Ready' ? { ...k, status: 'False', reason, message } : k,
        ),
      };
    };
    const patchStatusOf = (c: EngineCase, name: string, status: unknown) =>
      kubectl.ok(['patch', c.resource, name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    const reasonOf = (name: string, reason: string) =>
      eventually(async () => {
        const got = await kubectl.json(['get', 'dbi', name, '-n', ns]);
        return got.status?.reason === reason ? got : undefined;
      }, `the reason ${reason} on ${name}`);

    it(
      'a MariaDB whose Ready condition gives a reason no adapter knows is neither Ready nor Unknown, and keeps that reason and message',
      () =>
        withMariadbCopy('unknown-reason', async (c, name, sample) => {
          // the CRD's condition reason is free text: an operator release can add one
          await patchStatusOf(c, name, notReadyWith(c, sample, 'SomethingNew', 'a new kind of trouble'));
          const instance = await reasonOf(name, 'SomethingNew');
          expect(['Provisioning', 'Degraded']).toContain(instance.status.phase);
          expect(instance.status.message).toBe('a new kind of trouble');
        }),
      STEP,
    );

    it(
      'a MariaDB recorded Ready whose operator then reports its StatefulSet not ready is Degraded, not Provisioning (that word is for first creation)',
      () =>
        withMariadbCopy('was-ready', async (c, name, sample) => {
          await patchStatusOf(c, name, c.readyStatus(sample));
          expect((await waitForPhase(name, 'Ready')).code).toBe(0);
          // what survives a restart and reads the same on every replica: the recorded Ready spec
          await eventually(async () => {
            const object = await kubectl.json(['get', c.resource, name, '-n', ns]);
            return object.metadata.annotations?.['dbaas.platform.dev/ready-spec'];
          }, `the ready-spec annotation of ${name}`);
          await patchStatusOf(
            c,
            name,
            notReadyWith(c, sample, 'StatefulSetNotReady', `StatefulSet ${name} not found`),
          );
          const instance = await reasonOf(name, 'StatefulSetNotReady');
          expect(instance.status.phase).toBe('Degraded');
          expect(instance.status.message).toBe(`StatefulSet ${name} not found`);
        }),
      STEP,
    );

    it(
      'the diagnosis of a MariaDB names a volume claim of its members that no volume binds, with what to do',
      () =>
        withMariadbCopy('diagnosis', async (c, name) => {
          const claim = `storage-${name}-0`;
          // the labels mariadb-operator puts on its StatefulSet's claims; a class no cluster has
          await kubectl.ok(
            ['create', '-f', '-'],
            JSON.stringify({
              apiVersion: 'v1',
              kind: 'PersistentVolumeClaim',
              metadata: {
                name: claim,
                namespace: ns,
                labels: { 'app.kubernetes.io/name': 'mariadb', 'app.kubernetes.io/instance': name, [COPY_LABEL]: c.engine },
              },
              spec: {
                accessModes: ['ReadWriteOnce'],
                storageClassName: 'dbaas-conformance-no-such-class',
                resources: { requests: { storage: '1Gi' } },
              },
            }),
          );
          try {
            // what the volume controller writes for such a claim (a bare kube-apiserver runs none)
            await kubectl.ok(['patch', 'pvc', claim, '-n', ns, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Pending"}}']);
            const finding = await eventually(async () => {
              const d = JSON.parse(await kubectl.ok(['get', '--raw', `/apis/${GROUP}/${VERSION}/namespaces/${ns}/databaseinstances/${name}/diagnosis`]));
              return d.findings?.find((f: { reason: string }) => f.reason === 'PersistentVolumeClaimPending');
            }, `the PersistentVolumeClaimPending finding of ${name}`);
            expect(finding).toMatchObject({
              severity: 'Error',
              objects: [{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: claim, namespace: ns }],
            });
            expect(finding.message).toContain('storage class dbaas-conformance-no-such-class');
            expect(finding.hint).toContain('kubectl get storageclass');
          } finally {
            await kubectl.ok(['delete', 'pvc', claim, '-n', ns, '--wait=false']);
          }
        }),
      STEP,
    );

    describe.each(ENGINE_CASES)(
      '$engine: a $kind created and driven with kubectl alone',
      c => {
        it(
          `appears as a Pending DatabaseInstance while no operator has written a status`,
          async () => {
            // a copy of its own, without the engine label the listing cases select on
            const sample = samples.get(c.engine)!;
            const name = `pending-${nameOf(c)}`;
            const { [ENGINE_LABEL]: _engine, ...labels } =
              sample.metadata.labels;
            await kubectl.ok(
              ['create', '-f', '-'],
              JSON.stringify({
                ...sample,
                metadata: {
                  ...sample.metadata,
                  name,
                  labels: { ...labels, [COPY_LABEL]: c.engine },
                },
              }),
            );
            const source = await kubectl.json([
              'get',
              c.resource,
              name,
              '-n',
              ns,
            ]);
            const instance = await eventually(async () => {
              const r = await kubectl.run([
                'get',
                'dbi',
                name,
                '-n',
                ns,
                '-o',
                'json',
              ]);
              return r.code === 0 ? JSON.parse(r.stdout) : undefined;
            }, `databaseinstance ${name}`);
            expect(instance).toMatchObject({
              apiVersion: `${GROUP}/${VERSION}`,
              kind: 'DatabaseInstance',
              metadata: {
                name,
                namespace: ns,
                uid: source.metadata.uid,
                labels: { [COPY_LABEL]: c.engine },
              },
              spec: { engine: c.engine },
              status: {
                phase: 'Pending',
                source: {
                  apiVersion: source.apiVersion,
                  kind: c.kind,
                  name,
                },
              },
            });
            const row = parseTable(
              await kubectl.ok(['get', 'dbi', name, '-n', ns]),
            )[0];
            expect(row).toMatchObject({
              NAME: name,
              ENGINE: c.engine,
              PHASE: 'Pending',
            });
            await kubectl.ok([
              'delete',
              c.resource,
              name,
              '-n',
              ns,
              '--timeout=30s',
            ]);
          },
          STEP,
        );

        it(
          `is Ready once its status is patched to the operator's ready shape, with that status kept verbatim`,
          async () => {
            const phase = await ready(c);
            expect(phase.stderr).toBe('');
            expect(phase.code).toBe(0);
            // What the cluster stored (after its own pruning), not what was sent, is what must come back.
            const stored = (
              await kubectl.json(['get', c.resource, nameOf(c), '-n', ns])
            ).status;
            const instance = parseAllDocuments(
              await kubectl.ok([
                'get',
                'dbi',
                nameOf(c),
                '-n',
                ns,
                '-o',
                'yaml',
              ]),
            )[0].toJS();
            expect(instance.status.operatorStatus).toEqual(stored);
            expect(instance.status.conditions).toEqual(
              expect.arrayContaining([
                expect.objectContaining({ type: 'Ready', status: 'True' }),
              ]),
            );
          },
          STEP,
        );
      },
    );

    describe('reading the projections', () => {
      beforeAll(allReady, 5 * STEP);
      it(
        'get dbi -o wide prints one row per engine, agreeing with the objects, and more columns than without',
        async () => {
          const narrow = (await kubectl.ok(['get', 'dbi', '-n', ns]))
            .split('\n')[0]
            .trim()
            .split(/\s+/);
          const wideOut = await kubectl.ok([
            'get',
            'dbi',
            '-n',
            ns,
            '-o',
            'wide',
          ]);
          const wide = wideOut.split('\n')[0].trim().split(/\s+/);
          expect(wide.slice(0, narrow.length)).toEqual(narrow);
          expect(wide.length).toBeGreaterThan(narrow.length);
          expect(narrow).toEqual(
            expect.arrayContaining(['NAME', 'ENGINE', 'PHASE', 'AGE']),
          );
          const rows = parseTable(wideOut);
          const objects = (await kubectl.json(['get', 'dbi', '-n', ns])).items;
          expect(rows.map(r => r.NAME).sort()).toEqual(
            objects.map((o: any) => o.metadata.name).sort(),
          );
          expect(rows.map(r => r.NAME).sort()).toEqual(
            ENGINE_CASES.map(nameOf).sort(),
          );
          for (const o of objects) {
            const desired = o.status.replicas?.desired ?? o.spec.replicas;
            expect(rows.find(r => r.NAME === o.metadata.name)).toMatchObject({
              ENGINE: o.spec.engine,
              PHASE: o.status.phase,
              // a count the operator does not report is `?`, never 0 beside Ready
              ...(desired !== undefined && {
                READY: `${o.status.replicas?.ready ?? '?'}/${desired}`,
              }),
            });
          }
        },
        STEP,
      );

      it.each([
        { selector: ['-l', `${ENGINE_LABEL}=redis`], engines: ['redis'] },
        {
          selector: ['-l', `${ENGINE_LABEL} in (mysql,rabbitmq)`],
          engines: ['mysql', 'rabbitmq'],
        },
        {
          selector: ['-l', `${ENGINE_LABEL}!=mariadb`],
          engines: ALL_ENGINES.filter(e => e !== 'mariadb'),
        },
        {
          selector: ['--field-selector', 'spec.engine=elasticsearch'],
          engines: ['elasticsearch'],
        },
        {
          selector: ['--field-selector', 'status.phase=Ready'],
          engines: ALL_ENGINES,
        },
        { selector: ['--field-selector', 'status.phase=Failed'], engines: [] },
        {
          selector: [
            '--field-selector',
            'metadata.name=hello-world,spec.engine=rabbitmq',
          ],
          engines: ['rabbitmq'],
        },
      ])(
        'get dbi $selector lists $engines',
        async ({ selector, engines }) => {
          const list = await kubectl.json([
            'get',
            'dbi',
            '-n',
            ns,
            ...selector,
          ]);
          expect(list.items.map((o: any) => o.spec.engine).sort()).toEqual(
            [...engines].sort(),
          );
        },
        STEP,
      );

      it.each(ENGINE_CASES.map(c => [c.engine, c] as const))(
        '%s: the apiserver records the Ready spec on the operator object, and serves it nowhere',
        async (_engine, c) => {
          const recorded = async () => {
            const object = await kubectl.json(['get', c.resource, nameOf(c), '-n', ns]);
            return object.metadata.annotations?.['dbaas.platform.dev/ready-spec'] as string | undefined;
          };
          const spec = await eventually(recorded, `the ready-spec annotation of ${nameOf(c)}`);
          const instance = await kubectl.json(['get', 'dbi', nameOf(c), '-n', ns]);
          expect(JSON.parse(spec)).toMatchObject({ replicas: instance.spec.replicas });
          expect(instance.metadata.annotations?.['dbaas.platform.dev/ready-spec']).toBeUndefined();
        },
        STEP,
      );

      it.each(ENGINE_CASES.map(c => [c.engine, c] as const))(
        '%s: status.members lists the members the operator object asks for, none ready on a cluster where no operator runs their pods',
        async (_engine, c) => {
          const instance = await kubectl.json(['get', 'dbi', nameOf(c), '-n', ns]);
          const members: Array<{ name: string; ready: boolean }> = instance.status.members ?? [];
          expect(members.length).toBeGreaterThan(0);
          expect(members.filter(m => m.ready)).toEqual([]);
          expect(new Set(members.map(m => m.name)).size).toBe(members.length);
        },
        STEP,
      );

      it(
        'mysql: members follow the pods the operator labels (the suite writes them): roles, readiness, DNS names, -o wide PRIMARY',
        async () => {
          const mysql = ENGINE_CASES.find(c => c.engine === 'mysql')!;
          const name = nameOf(mysql);
          const count = samples.get('mysql')!.spec.instances ?? 1;
          await kubectl.defaultServiceAccount(ns);
          const pods = Array.from({ length: count }, (_, i) => ({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              name: `${name}-${i}`,
              namespace: ns,
              // what the operator sets (cluster_objects.py) and what its probes label an ONLINE member
              labels: {
                component: 'mysqld',
                tier: 'mysql',
                'mysql.oracle.com/cluster': name,
                'mysql.oracle.com/instance-type': 'group-member',
                'mysql.oracle.com/cluster-role': i === 1 ? 'PRIMARY' : 'SECONDARY',
              },
            },
            // gated: no scheduler binds it and no kubelet rewrites the status the suite writes
            spec: {
              schedulingGates: [{ name: 'dbaas.platform.dev/conformance' }],
              containers: [{ name: 'mysql', image: 'registry.k8s.io/pause:3.9' }],
            },
          }));
          try {
            await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods }));
            for (const pod of pods)
              await kubectl.ok([
                'patch', 'pod', pod.metadata.name, '-n', ns, '--subresource=status', '--type=merge', '-p',
                JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } }),
              ]);
            const members = await eventually(async () => {
              const got = (await kubectl.json(['get', 'dbi', name, '-n', ns])).status.members ?? [];
              return got.length === count && got.every((m: any) => m.ready) ? got : undefined;
            }, `${count} ready members of ${name}`);
            expect(members).toEqual(
              pods.map((p, i) => ({
                name: p.metadata.name,
                role: i === 1 ? 'primary' : 'replica',
                engineRole: i === 1 ? 'PRIMARY' : 'SECONDARY',
                ready: true,
                host: `${p.metadata.name}.${name}-instances.${ns}.svc`,
              })),
            );
            const row = parseTable(await kubectl.ok(['get', 'dbi', name, '-n', ns, '-o', 'wide']))[0];
            expect(row.PRIMARY).toBe(`${name}-1`);
          } finally {
            await kubectl.run(['delete', 'pod', ...pods.map(p => p.metadata.name), '-n', ns, '--grace-period=0', '--force', '--ignore-not-found']);
          }
        },
        STEP,
      );

      it(
        'an unknown field selector is a 400 naming the supported fields',
        async () => {
          const r = await kubectl.run([
            'get',
            'dbi',
            '-n',
            ns,
            '--field-selector',
            'spec.size=1Gi',
          ]);
          expect(r.code).not.toBe(0);
          expect(r.stderr).toMatch(
            /BadRequest.*"spec\.size" is not a known field selector/,
          );
        },
        STEP,
      );

      it(
        'get dbi -w sees the phase follow the operator status, both ways',
        async () => {
          const mariadb = ENGINE_CASES.find(c => c.engine === 'mariadb')!;
          const watch = kubectl.watch([
            ...watchOneArgs('dbi', nameOf(mariadb), ns),
            '-o',
            'jsonpath={.status.phase}{"\\n"}',
          ]);
          try {
            await watch.waitForLine(l => l === 'Ready');
            const failed = readManifest(
              'mariadb-operator/status/mariadb-failed-error.argocd-fixture.yaml',
            ).status;
            await patchStatus(mariadb, failed);
            await watch.waitForLine(l => l === 'Failed');
            // counted before the patch: its Ready can arrive while the patch call is answered
            const lines = watch.lines.length;
            await patchStatus(
              mariadb,
              mariadb.readyStatus(samples.get('mariadb')!),
            );
            await watch.waitForLine(
              l => l === 'Ready' && watch.lines.lastIndexOf('Ready') >= lines,
            );
            expect(
              watch.lines.filter((l, i) => i === 0 || l !== watch.lines[i - 1]),
            ).toEqual(['Ready', 'Failed', 'Ready']);
          } finally {
            watch.stop();
          }
        },
        STEP,
      );

      it(
        "a user without RBAC gets kube-apiserver's Forbidden for list and get",
        async () => {
          const user = `system:serviceaccount:${ns}:nobody`;
          const list = await kubectl.as(user).run(['get', 'dbi', '-n', ns]);
          expect(list.code).not.toBe(0);
          expect(list.stderr).toContain(
            `Error from server (Forbidden): databaseinstances.${GROUP} is forbidden: User "${user}" cannot list resource "databaseinstances" in API group "${GROUP}" in the namespace "${ns}"`,
          );
          const get = await kubectl
            .as(user)
            .run(['get', 'dbi', 'hello-world', '-n', ns]);
          expect(get.stderr).toContain(
            `databaseinstances.${GROUP} "hello-world" is forbidden: User "${user}" cannot get resource "databaseinstances" in API group "${GROUP}" in the namespace "${ns}"`,
          );
        },
        STEP,
      );

      it(
        'a missing instance is 404 NotFound',
        async () => {
          const r = await kubectl.run(['get', 'dbi', 'no-such-db', '-n', ns]);
          expect(r.code).not.toBe(0);
          expect(r.stderr).toContain(
            `Error from server (NotFound): databaseinstances.${GROUP} "no-such-db" not found`,
          );
        },
        STEP,
      );

      it(
        'a watch from a long-gone resourceVersion is 410 Expired',
        async () => {
          const r = await kubectl.run([
            'get',
            '--raw',
            `/apis/${GROUP}/${VERSION}/namespaces/${ns}/databaseinstances?watch=1&resourceVersion=1&timeoutSeconds=5`,
          ]);
          // Either form is what kube-apiserver itself does: an ERROR event, or the HTTP status.
          const firstLine = r.stdout.trim().split('\n')[0];
          const event = firstLine ? JSON.parse(firstLine) : undefined;
          const answer = event
            ? `${event.type} ${event.object?.code} ${event.object?.reason}`
            : r.stderr.trim();
          expect(answer).toMatch(
            /^ERROR 410 Expired$|^Error from server \(Expired\)/,
          );
        },
        STEP,
      );
    });

    describe('writes (operator objects only; no operator needs to run)', () => {
      beforeAll(allReady, 5 * STEP);
      const manifest = (name: string, spec: Record<string, unknown>) =>
        JSON.stringify({
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'DatabaseInstance',
          metadata: { name, namespace: ns },
          spec,
        });

      it.each(ENGINE_CASES)(
        '$engine: create, patch and delete a DatabaseInstance through its operator object',
        async c => {
          const name = `conf-${c.engine}`;
          const created = await kubectl.run(
            ['create', '-f', '-'],
            manifest(name, { engine: c.engine }),
          );
          expect(created.stderr).toBe('');
          expect(created.stdout.trim()).toBe(
            `databaseinstance.${GROUP}/${name} created`,
          );

          const instance = await kubectl.json(['get', 'dbi', name, '-n', ns]);
          expect(instance.spec.engine).toBe(c.engine);
          expect(instance.status.phase).toBe('Pending');
          const source = instance.status.source;
          expect(c.kinds).toContain(source.kind);
          const group = source.apiVersion.split('/')[0];
          const operatorObject = await kubectl.json([
            'get',
            `${source.kind.toLowerCase()}.${group}`,
            name,
            '-n',
            ns,
          ]);
          expect(operatorObject.metadata.uid).toBe(instance.metadata.uid);
          // contract: generation 1 on create, counted as the operator object's (whose spec the
          // instance's goes to, and whose status.observedGeneration the operator writes)
          expect(instance.metadata.generation).toBe(1);
          expect(instance.metadata.generation).toBe(operatorObject.metadata.generation);

          const protect = await kubectl.run([
            'patch',
            'dbi',
            name,
            '-n',
            ns,
            '--type=merge',
            '-p',
            '{"spec":{"deletionProtection":true}}',
          ]);
          expect(protect.stdout.trim()).toBe(
            `databaseinstance.${GROUP}/${name} patched`,
          );
          expect(
            (await kubectl.json(['get', 'dbi', name, '-n', ns])).spec
              .deletionProtection,
          ).toBe(true);
          const refused = await kubectl.run([
            'delete',
            'dbi',
            name,
            '-n',
            ns,
            '--wait=false',
          ]);
          expect(refused.code).not.toBe(0);
          expect(refused.stderr).toMatch(/deletion protection/);

          await kubectl.ok([
            'patch',
            'dbi',
            name,
            '-n',
            ns,
            '--type=json',
            '-p',
            '[{"op":"replace","path":"/spec/deletionProtection","value":false}]',
          ]);
          const deleted = await kubectl.run([
            'delete',
            'dbi',
            name,
            '-n',
            ns,
            '--timeout=30s',
          ]);
          expect(deleted.stdout).toContain(
            `databaseinstance.${GROUP} "${name}" deleted`,
          );
          const gone = await kubectl.run([
            'get',
            `${source.kind.toLowerCase()}.${group}`,
            name,
            '-n',
            ns,
          ]);
          expect(gone.stderr).toMatch(/NotFound/);
        },
        STEP,
      );

      it.each(ENGINE_CASES)(
        '$engine: server-side apply creates, a second apply of the same file writes nothing, a second manager conflicts until forced',
        async c => {
          const name = `conf-ssa-${c.engine}`;
          const config = (team: string) =>
            JSON.stringify({
              apiVersion: `${GROUP}/${VERSION}`,
              kind: 'DatabaseInstance',
              metadata: { name, namespace: ns, labels: { team } },
              spec: { engine: c.engine },
            });
          const applied = await kubectl.run(['apply', '--server-side', '-f', '-'], config('a'));
          expect(applied.stderr).toBe('');
          expect(applied.stdout.trim()).toBe(`databaseinstance.${GROUP}/${name} serverside-applied`);
          const first = await kubectl.json(['get', 'dbi', name, '-n', ns, '--show-managed-fields']);
          expect(first.metadata.managedFields).toEqual([
            expect.objectContaining({
              manager: 'kubectl',
              operation: 'Apply',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:metadata': { 'f:labels': { 'f:team': {} } }, 'f:spec': { 'f:engine': {} } },
            }),
          ]);
          // kept where it survives restarts and replicas: on the operator object
          const source = first.status.source;
          const operatorObject = () =>
            kubectl.json(['get', `${source.kind.toLowerCase()}.${source.apiVersion.split('/')[0]}`, name, '-n', ns]);
          const before = await operatorObject();
          expect(JSON.parse(before.metadata.annotations['dbaas.platform.dev/managed-fields'])).toEqual(first.metadata.managedFields);

          await kubectl.ok(['apply', '--server-side', '-f', '-'], config('a'));
          expect((await operatorObject()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);

          const refused = await kubectl.run(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], config('b'));
          expect(refused.code).not.toBe(0);
          expect(refused.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .metadata.labels.team');
          const forced = await kubectl.run(['apply', '--server-side', '--field-manager=team-b', '--force-conflicts', '-f', '-'], config('b'));
          expect(forced.stderr).toBe('');
          const after = await kubectl.json(['get', 'dbi', name, '-n', ns, '--show-managed-fields']);
          expect(after.metadata.labels.team).toBe('b');
          expect(after.metadata.managedFields.map((e: any) => e.manager).sort()).toEqual(['kubectl', 'team-b']);
          await kubectl.ok(['delete', 'dbi', name, '-n', ns, '--timeout=30s']);
        },
        STEP,
      );

      // The operator's CRD prunes what its schema lacks: a resize written to a field the CRD does
      // not have is accepted and silently lost. Reading the instance back is what shows it.
      it.each(ENGINE_CASES)(
        '$engine: a resize is kept by the operator CRD and reads back on the instance',
        async c => {
          const name = `conf-rs-${c.engine}`;
          await kubectl.ok(
            ['create', '-f', '-'],
            manifest(name, { engine: c.engine }),
          );
          const resources = {
            requests: { cpu: '750m', memory: '1536Mi' },
            limits: { memory: '2Gi' },
          };
          const patched = await kubectl.run([
            'patch',
            'dbi',
            name,
            '-n',
            ns,
            '--type=merge',
            '-p',
            JSON.stringify({ spec: { resources } }),
          ]);
          expect(patched.stderr).toBe('');
          expect(
            (await kubectl.json(['get', 'dbi', name, '-n', ns])).spec.resources,
          ).toMatchObject(resources);
          await kubectl.ok(['delete', 'dbi', name, '-n', ns, '--timeout=30s']);
        },
        STEP,
      );

      const pauseCase = (name: string, engine: string) => ({
        async created() {
          await kubectl.ok(['create', '-f', '-'], manifest(name, { engine }));
          const source = (await kubectl.json(['get', 'dbi', name, '-n', ns])).status.source;
          const group = source.apiVersion.split('/')[0];
          return () => kubectl.json(['get', `${source.kind.toLowerCase()}.${group}`, name, '-n', ns]);
        },
        patch: (paused: boolean) =>
          kubectl.run(['patch', 'dbi', name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { paused } })]),
        get: () => kubectl.json(['get', 'dbi', name, '-n', ns]),
        remove: () => kubectl.ok(['delete', 'dbi', name, '-n', ns, '--timeout=30s']),
      });

      it.each(ENGINE_CASES.filter(c => c.pause))(
        "$engine: spec.paused writes the operator's own pause, the instance is Paused, and false resumes it",
        async c => {
          const t = pauseCase(`conf-pause-${c.engine}`, c.engine);
          const operatorObject = await t.created();
          expect((await t.patch(true)).stderr).toBe('');
          expect(c.pause!.read(await operatorObject())).toEqual(c.pause!.value);
          const instance = await t.get();
          expect(instance.spec.paused).toBe(true);
          // the owner's word decides, whether or not an operator has written a status yet
          expect(instance.status.phase).toBe('Paused');
          expect((await t.patch(false)).stderr).toBe('');
          // gone, or the CRD's default (mariadb-operator defaults spec.suspend to false)
          expect(c.pause!.read(await operatorObject())).not.toEqual(c.pause!.value);
          const resumed = await t.get();
          expect(resumed.spec.paused).toBeUndefined();
          expect(resumed.status.phase).not.toBe('Paused');
          await t.remove();
        },
        STEP,
      );

      it.each(ENGINE_CASES.filter(c => !c.pause))(
        '$engine: spec.paused: true is refused naming the field, and nothing changes',
        async c => {
          const t = pauseCase(`conf-pause-${c.engine}`, c.engine);
          const operatorObject = await t.created();
          const before = await operatorObject();
          const refused = await t.patch(true);
          expect(refused.code).not.toBe(0);
          expect(refused.stderr).toMatch(/is invalid: spec\.paused: Forbidden: .* has no documented way to pause/);
          expect((await t.get()).spec.paused).toBeUndefined();
          // (its status and the apiserver's ready-spec record may move, an operator may be
          // running; what the client asked for did not)
          const after = await operatorObject();
          expect(after.spec).toEqual(before.spec);
          expect(after.metadata.labels).toEqual(before.metadata.labels);
          await t.remove();
        },
        STEP,
      );

      it(
        "an event about the operator object's pod is the instance's own: kubectl describe dbi and get events show it",
        async () => {
          const name = 'conf-events';
          await kubectl.ok(['create', '-f', '-'], manifest(name, { engine: 'rabbitmq' }));
          const dbi = await kubectl.json(['get', 'dbi', name, '-n', ns]);
          // as kubelet writes it about the operator's first pod (`<name>-server-0`)
          await kubectl.ok(
            ['create', '-f', '-'],
            JSON.stringify({
              apiVersion: 'v1',
              kind: 'Event',
              metadata: { name: `${name}-server-0.conformance`, namespace: ns },
              involvedObject: { apiVersion: 'v1', kind: 'Pod', name: `${name}-server-0`, namespace: ns },
              reason: 'BackOff',
              message: 'Back-off restarting failed container rabbitmq',
              type: 'Warning',
              count: 2,
              firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              source: { component: 'kubelet' },
            }),
          );
          const selector = `involvedObject.kind=DatabaseInstance,involvedObject.name=${name}`;
          // the apiserver writes the mirror from its watch of events: wait for it
          const mirrored: any[] = await eventually(async () => {
            const { items } = await kubectl.json(['get', 'events', '-n', ns, '--field-selector', selector]);
            if (items.length > 0) return items;
            throw new Error(`no event selected by ${selector} yet`);
          }, `the mirrored event of ${name}`);
          expect(mirrored).toEqual([
            expect.objectContaining({
              reason: 'BackOff',
              type: 'Warning',
              count: 2,
              message: `Pod ${name}-server-0: Back-off restarting failed container rabbitmq`,
              involvedObject: expect.objectContaining({ kind: 'DatabaseInstance', name, uid: dbi.metadata.uid }),
            }),
          ]);
          const described = await kubectl.run(['describe', 'dbi', name, '-n', ns]);
          expect(described.stdout).toMatch(/Warning\s+BackOff\s+.*kubelet\s+Pod conf-events-server-0: Back-off restarting/);
          await kubectl.ok(['delete', 'event', `${name}-server-0.conformance`, '-n', ns]);
          await kubectl.ok(['delete', 'dbi', name, '-n', ns, '--timeout=30s']);
        },
        STEP,
      );

      it(
        'an invalid DatabaseInstance is 422 Invalid naming each bad field, and nothing is created',
        async () => {
          const r = await kubectl.run(
            ['create', '-f', '-'],
            manifest('conf-invalid', {
              engine: 'mariadb',
              replicas: -1,
              storage: { size: 'lots' },
            }),
          );
          expect(r.code).not.toBe(0);
          expect(r.stderr).toMatch(
            /The DatabaseInstance "conf-invalid" is invalid/,
          );
          expect(r.stderr).toMatch(/spec\.replicas/);
          expect(r.stderr).toMatch(/spec\.storage\.size/);
          const engine = await kubectl.run(
            ['create', '-f', '-'],
            manifest('conf-invalid', { engine: 'nosql' }),
          );
          expect(engine.stderr).toMatch(
            /The DatabaseInstance "conf-invalid" is invalid: spec\.engine: Unsupported value: "nosql"/,
          );
          expect(
            (await kubectl.run(['get', 'dbi', 'conf-invalid', '-n', ns]))
              .stderr,
          ).toMatch(/NotFound/);
        },
        STEP,
      );

      it(
        'creating a name an operator object already holds is 409 AlreadyExists',
        async () => {
          const r = await kubectl.run(
            ['create', '-f', '-'],
            manifest('hello-world', { engine: 'mariadb' }),
          );
          expect(r.code).not.toBe(0);
          expect(r.stderr).toContain(`Error from server (AlreadyExists)`);
          expect(r.stderr).toContain('"hello-world" already exists');
          expect(
            (await kubectl.json(['get', 'dbi', 'hello-world', '-n', ns])).spec
              .engine,
          ).toBe('rabbitmq');
        },
        STEP,
      );

      it(
        'an update carrying a stale resourceVersion is 409 Conflict',
        async () => {
          const name = 'conf-conflict';
          await kubectl.ok(
            ['create', '-f', '-'],
            manifest(name, { engine: 'rabbitmq' }),
          );
          const stale = await kubectl.json(['get', 'dbi', name, '-n', ns]);
          await kubectl.ok([
            'patch',
            'dbi',
            name,
            '-n',
            ns,
            '--type=merge',
            '-p',
            '{"spec":{"deletionProtection":true}}',
          ]);
          const r = await kubectl.run(
            ['replace', '-f', '-'],
            JSON.stringify({
              ...stale,
              spec: { ...stale.spec, deletionProtection: false },
            }),
          );
          expect(r.code).not.toBe(0);
          expect(r.stderr).toMatch(/Conflict|the object has been modified/);
          expect(
            (await kubectl.json(['get', 'dbi', name, '-n', ns])).spec
              .deletionProtection,
          ).toBe(true);
          // gone again: the listing cases count what is in the namespace
          await kubectl.ok([
            'patch',
            'dbi',
            name,
            '-n',
            ns,
            '--type=merge',
            '-p',
            '{"spec":{"deletionProtection":false}}',
          ]);
          await kubectl.ok(['delete', 'dbi', name, '-n', ns, '--timeout=30s']);
        },
        STEP,
      );

      it(
        'status.binding names a servicebinding.io Secret with the connection subresource\'s values, owned by the operator object, that follows a password rotation within 5 s',
        async () => {
          const seen = await runBinding(kubectl, ns);
          expect(seen.bindingName).toBe('conf-binding-binding');
          const c = seen.connection;
          expect(seen.entries).toEqual({
            type: 'redis',
            provider: 'redis-operator',
            host: c.host,
            port: String(c.port),
            ...(c.username !== undefined && { username: c.username }),
            password: c.password,
            uri: c.uri,
          });
          expect(seen.type).toBe('servicebinding.io/redis');
          expect(seen.ownerUids).toEqual([seen.operatorUid]);
          expect(seen.rotated.uri).toContain(encodeURIComponent(seen.rotated.password));
          expect(seen.rotated.ms).toBeLessThanOrEqual(ROTATION_MS);
        },
        STEP,
      );

      it.each(SWITCHOVER_CASES.map(c => [c.engine, c] as const))(
        '%s: spec.primary writes what the operator documents; Updating (Switchover) until the operator reports the new primary, then Ready with it',
        async (_engine, c) => {
          const seen = await runSwitchover(kubectl, ns, c);
          expect(seen.asked).toMatchObject(c.asked);
          expect(seen.moving.reason).toBe('Switchover');
          expect(seen.primary).toBe(c.to);
          expect(seen.after).toEqual({ member: c.to, wide: c.to });
        },
        STEP,
      );

      it(
        'DatabaseBackup: a create writes the operator\'s backup object; the phase and the run\'s Job-like condition follow what the operator writes (mariadb-operator\'s Complete=True JobFailed is Failed); refusals write nothing; a delete removes the operator object and says the stored data stays',
        async () => {
          const engine = (e: string) => ENGINE_CASES.find(c => c.engine === e)!;
          await Promise.all(['mariadb', 'postgresql', 'redis'].map(e => ready(engine(e))));
          const seen = await runBackups(kubectl, ns, {
            mariadb: nameOf(engine('mariadb')),
            postgresql: nameOf(engine('postgresql')),
            redis: nameOf(engine('redis')),
          });
          expect(seen.created.spec).toEqual({ instanceRef: { name: nameOf(engine('mariadb')) } });
          expect(seen.created.status).toMatchObject({ phase: 'Pending', engine: 'mariadb', restorable: false, source: { kind: 'Backup', operator: 'mariadb-operator' } });
          // the CRD defaults waitForIt
          expect(seen.operatorObject.spec.mariaDbRef).toMatchObject({ name: nameOf(engine('mariadb')) });
          expect(seen.operatorObject.spec.storage).toBeDefined();
          expect(seen.running.phase).toBe('Running');
          expect(seen.failed).toMatchObject({ phase: 'Failed', restorable: false, message: 'Failed' });
          // the run's own conditions, as a Job's: Failed, never the operator's Complete=True
          expect(seen.failed.conditions?.map(c => [c.type, c.status])).toEqual([['Failed', 'True']]);
          expect(seen.completed.spec).toEqual({ instanceRef: { name: nameOf(engine('postgresql')) }, method: 'barmanObjectStore' });
          expect(seen.completed.status).toMatchObject({ phase: 'Succeeded', restorable: true, startTime: '2026-12-01T10:00:00Z', completionTime: '2026-12-01T10:01:30Z' });
          expect(seen.completed.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status])).toEqual([['Complete', 'True']]);
          // each instance says when it was last backed up: the runs' ends (the PostgreSQL's is its run's, or newer where its Cluster records one)
          expect(seen.instanceBackup.mariadb.lastFailedTime).toBe(seen.failed.completionTime ?? seen.failed.startTime ?? seen.created.metadata.creationTimestamp);
          expect(Date.parse(seen.instanceBackup.postgresql.lastSuccessfulTime)).toBeGreaterThanOrEqual(Date.parse('2026-12-01T10:01:30Z'));
          expect(seen.refusals.redis).toMatch(/is invalid: spec.instanceRef.name: Forbidden/);
          expect(seen.refusals.pgMethod).toMatch(/is invalid: spec.method/);
          expect(seen.refusals.after).toEqual(seen.refusals.before);
          expect(seen.deleted.stdout).toMatch(/databasebackup.dbaas.platform.dev "conf-backup" deleted/);
          expect(seen.deleted.stderr).toMatch(/Warning: .*the backup data itself is not deleted/);
          expect(seen.deleted.gone).toBe(true);
        },
        STEP,
      );

      it(
        'DatabaseBackupSchedule: a create writes mariadb-operator\'s scheduled Backup (5-field cron, UTC, retention as maxRetention); its status follows the CronJob and condition the suite writes as the operator does; a Job of that CronJob is a DatabaseBackup run whose delete deletes the Job; a merge patch suspends it; refusals write nothing; a delete removes the operator object',
        async () => {
          const engine = (e: string) => ENGINE_CASES.find(c => c.engine === e)!;
          await Promise.all(['mariadb', 'redis'].map(e => ready(engine(e))));
          const seen = await runSchedules(kubectl, ns, { mariadb: nameOf(engine('mariadb')), redis: nameOf(engine('redis')) });
          expect(seen.created.spec).toEqual({ instanceRef: { name: nameOf(engine('mariadb')) }, schedule: '0 3 * * *', suspend: false, retention: '168h' });
          expect(seen.created.status).toMatchObject({ engine: 'mariadb', reason: 'WaitingForOperator', source: { kind: 'Backup', operator: 'mariadb-operator' } });
          expect(seen.operatorObject.spec).toMatchObject({ schedule: { cron: '0 3 * * *', suspend: false }, timeZone: 'UTC', maxRetention: '168h' });
          expect(seen.ran.status).toMatchObject({ reason: 'LastRunSucceeded', lastScheduleTime: seen.ran.status.lastSuccessfulTime });
          expect(Date.parse(seen.ran.status.nextScheduleTime)).toBeGreaterThan(Date.parse(seen.ran.status.lastScheduleTime));
          // a later run failed: dated by the operator's condition, whose reason reads CronJobScheduled
          expect(seen.failed.status).toMatchObject({ reason: 'LastRunFailed', lastSuccessfulTime: seen.ran.status.lastSuccessfulTime });
          expect(seen.failed.status.lastFailedTime).toBe(seen.failed.status.lastScheduleTime);
          // a Job of the schedule's CronJob is a run of the MariaDB, decided by the Job (suspended: Pending)
          expect(seen.run.served.spec).toEqual({ instanceRef: { name: nameOf(engine('mariadb')) } });
          expect(seen.run.served.metadata.labels).toEqual({ 'conformance.dbaas.platform.dev/run': 'true' });
          expect(seen.run.served.status).toMatchObject({ phase: 'Pending', reason: 'JobSuspended', restorable: false, source: { apiVersion: 'batch/v1', kind: 'Job', operator: 'mariadb-operator' } });
          expect(seen.run.deleted.stdout).toMatch(/databasebackup.dbaas.platform.dev "conf-schedule-\d+" deleted/);
          expect(seen.run.deleted.stderr).toMatch(/Warning: .*the backup data itself is not deleted/);
          expect(seen.run.deleted.jobGone).toBe(true);
          expect(seen.suspended).toEqual({ cron: '0 3 * * *', suspend: true });
          expect(seen.refusals.redis).toMatch(/is invalid: spec.instanceRef.name: Forbidden/);
          expect(seen.refusals.sixFields).toMatch(/is invalid: spec.schedule: Invalid value: "0 0 3 \* \* \*": must be a 5-field cron/);
          expect(seen.refusals.after).toEqual(seen.refusals.before);
          expect(seen.deleted.stdout).toMatch(/databasebackupschedule.dbaas.platform.dev "conf-schedule" deleted/);
          expect(seen.deleted.stderr).toMatch(/Warning: .*the backups it already took are kept/);
          expect(seen.deleted.gone).toBe(true);
        },
        STEP,
      );

      it(
        'DatabaseBackupSchedule of a MySQL: an entry <cluster>-<entry> of the InnoDBCluster\'s spec.backupSchedules, its last run from the operator\'s CronJob, suspended and deleted in the list',
        async () => {
          const seen = await runMysqlSchedule(kubectl, ns);
          expect(seen.created.spec).toEqual({ instanceRef: { name: 'conf-mysql-sched' }, schedule: '0 3 * * *', suspend: false, method: 'dump' });
          expect(seen.created.status).toMatchObject({ engine: 'mysql', reason: 'WaitingForOperator', source: { kind: 'InnoDBCluster', name: 'conf-mysql-sched', operator: 'mysql-operator' } });
          expect(seen.entries.created).toEqual([{ name: 'nightly', schedule: '0 3 * * *', backupProfileName: 'dump', enabled: true, timeZone: 'Etc/UTC', deleteBackupData: false }]);
          expect(seen.ran.status).toMatchObject({ reason: 'Scheduled' });
          expect(Date.parse(seen.ran.status.nextScheduleTime)).toBeGreaterThan(Date.parse(seen.ran.status.lastScheduleTime));
          expect(seen.entries.suspended).toEqual([{ name: 'nightly', schedule: '0 3 * * *', backupProfileName: 'dump', enabled: false, timeZone: 'Etc/UTC', deleteBackupData: false }]);
          expect(seen.deleted.stdout).toMatch(/databasebackupschedule.dbaas.platform.dev "conf-mysql-sched-nightly" deleted/);
          expect(seen.entries.deleted).toBeUndefined();
        },
        STEP,
      );

      it(
        'spec.restoreFrom: a PostgreSQL created from a Succeeded backup writes bootstrap.recovery; Provisioning (Restoring) while its first primary is recovered, then Ready',
        async () => {
          const engine = ENGINE_CASES.find(c => c.engine === 'postgresql')!;
          await ready(engine);
          const seen = await runRestore(kubectl, ns, nameOf(engine));
          expect(seen.operatorObject.spec.bootstrap).toEqual({ recovery: { backup: { name: 'conf-restore-src' } } });
          expect(seen.created.spec.restoreFrom).toEqual({ backup: 'conf-restore-src' });
          expect(seen.restoring).toMatchObject({ phase: 'Provisioning', reason: 'Restoring', message: 'Creating primary instance conf-restored-1' });
          expect(seen.ready).toMatchObject({ phase: 'Ready', reason: 'AllReplicasReady' });
        },
        STEP,
      );

      it(
        'spec.restoreFrom: a MariaDB whose Restore ends Complete=True JobFailed is Failed (RestoreFailed), though the operator then says BackupRestored and Ready, and stays Failed once the Restore is deleted',
        async () => {
          const engine = ENGINE_CASES.find(c => c.engine === 'mariadb')!;
          await ready(engine);
          const seen = await runFailedMariadbRestore(kubectl, ns, nameOf(engine));
          expect(seen.operatorObject.spec.bootstrapFrom).toMatchObject({ backupRef: { name: 'conf-mdb-restore-src' } });
          expect(seen.failed).toMatchObject({ phase: 'Failed', reason: 'RestoreFailed' });
          expect(seen.failed.message).toMatch(/^Restore conf-mdb-broken-restore: Failed/);
          expect(seen.annotations['dbaas.platform.dev/restore-failed']).toBe(seen.failed.message);
          expect(seen.afterDelete).toMatchObject({ phase: 'Failed', reason: 'RestoreFailed', message: seen.failed.message });
        },
        STEP,
      );

      it(
        'spec.initDB.dump: an InnoDB Cluster whose seed pod keeps failing to load its dump is Failed (RestoreFailed), saying where the operator wrote why',
        async () => {
          const seen = await runFailedDumpLoad(kubectl, ns);
          expect(seen.restoring).toMatchObject({ phase: 'Provisioning', reason: 'Restoring' });
          expect(seen.restoring.message).toMatch(/^Loading dump conf-dump \(spec.initDB.dump\)/);
          expect(seen.failed).toMatchObject({ phase: 'Failed', reason: 'RestoreFailed' });
          expect(seen.failed.message).toBe(
            `Loading dump conf-dump failed: container sidecar of the seed pod conf-mysql-bad-dump-0 exited with code 1 (Error), restarted 2 times. ` +
              `mysql-operator writes why only to that container's log: kubectl logs -n ${ns} conf-mysql-bad-dump-0 -c sidecar --previous`,
          );
        },
        STEP,
      );
    });
  });
}
