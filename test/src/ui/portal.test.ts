import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { bindClusterRole } from '../support/bindClusterRole';
import { launchBrowser } from './support/browser';
import { portalSession, SCREENSHOTS, SCREENSHOT_REFRESH } from './support/portalSession';
import { startPortal, type Portal } from './support/startPortal';

const COMPONENT = 'notifications';
const NAME = `e2e-galera-${Date.now().toString(36)}`;

let portal: Portal;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
const { shot, signIn: signInAt, pick } = portalSession(() => page);
const signIn = (baseUrl: string) => signInAt(baseUrl, 'Databases');

/** Starts a portal and a browser page on it (each describe has its own). */
async function openPortal(options?: Parameters<typeof startPortal>[0]): Promise<Portal> {
  const started = await startPortal(options);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
  return started;
}

async function closePortal(started: Portal | undefined) {
  await browser?.close();
  await started?.stop();
}

/** Clicks `label` in the open dialog and waits for it to close; a dialog that stays open says why. */
async function confirmInDialog(label: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: label }).click();
  try {
    await dialog.waitFor({ state: 'hidden' });
  } catch (e) {
    const text = await dialog.innerText().catch(() => '(unreadable)');
    throw new Error(`the dialog stayed open after ${label}: ${text}`);
  }
}

/** Runs one step of a story; a failure names the step. */
async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (err) {
    throw new Error(`step "${name}": ${(err as Error).message}`);
  }
}

afterAll(() => {
  if (!SCREENSHOT_REFRESH) rmSync(SCREENSHOTS, { recursive: true, force: true });
});

describe('the portal in a browser', () => {
  beforeAll(async () => {
    portal = await openPortal();
  }, 300_000);
  afterAll(() => closePortal(portal), 60_000);

  it('signs in as guest and lists the databases with counts', async () => {
    await signIn(portal.baseUrl);
    await page.getByRole('link', { name: 'Databases' }).first().click();
    await page.getByTestId('total-count').waitFor();
    await expect(page.getByTestId('total-count').textContent()).resolves.toMatch(/^[1-9]/);
    await page.getByRole('table', { name: 'Databases' }).getByRole('row').nth(1).waitFor();
    await shot('databases-page');
  }, 120_000);

  it('connect an application: the Connect panel names the binding Secret and gives a WordPress chart the values that read it', async () => {
    await signIn(portal.baseUrl);
    await page.goto(`${portal.baseUrl}/databases/local/team-a/orders-db`);
    const panel = page.getByTestId('connect-panel');
    await panel.getByTestId('binding-secret').filter({ hasText: 'orders-db-binding' }).waitFor({ timeout: 60_000 });
    await panel.getByRole('tab', { name: 'WordPress (Helm)' }).click();
    const values = await panel.getByTestId('connect-snippet-wordpress').innerText();
    expect(values).toMatch(/existingSecret: orders-db-binding/);
    // the Secret it names is there, with what WordPress' chart reads
    const secret = portal.system.emulator.store.get({ group: '', version: 'v1', plural: 'secrets' }, 'team-a', 'orders-db-binding') as any;
    const entries = Object.fromEntries(Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(entries['mariadb-password']).toBe(entries.password);
    expect(values).toContain(`host: ${entries.host}`);
    await panel.getByRole('tab', { name: 'Deployment env' }).click();
    await expect(panel.getByTestId('connect-snippet-env').innerText()).resolves.toMatch(/secretKeyRef:\s+name: orders-db-binding\s+key: password/);
    await shot('instance-connect');
  }, 120_000);

  it('a degraded database says what is wrong: Galera recovering and the member that keeps crashing, each with what to do, and shows the events', async () => {
    await signIn(portal.baseUrl);
    await page.goto(`${portal.baseUrl}/databases/local/team-a/payments-ledger`);
    await page.getByTestId('phase-banner').waitFor();
    const crash = page.getByTestId('diagnosis-finding').filter({ hasText: 'CrashLoopBackOff' });
    await crash.waitFor();
    await expect(crash.textContent()).resolves.toMatch(/payments-ledger-2.*keeps crashing.*What to do: Read its last log/);
    await page.getByTestId('diagnosis-finding').filter({ hasText: 'GaleraRecoveryInProgress' }).waitFor();
    // and kubelet's own word about that member, among the instance's events
    const backOff = page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: 'BackOff' });
    await backOff.waitFor({ timeout: 60_000 });
    await expect(backOff.textContent()).resolves.toMatch(/Warning.*kubelet.*Pod payments-ledger-2.*Back-off restarting failed container mariadb/);
    await shot('instance-diagnosis');
    // an event that happens now reaches the open page (no reload; the instance itself does not change)
    const probe = `Readiness probe failed: e2e-${Date.now().toString(36)}`;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    portal.system.emulator.store.create({ group: '', version: 'v1', plural: 'events' }, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `payments-ledger-1.${Date.now().toString(16)}`, namespace: 'team-a' },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'payments-ledger-1', namespace: 'team-a' },
      reason: 'Unhealthy',
      message: probe,
      type: 'Warning',
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: 'kubelet', host: 'emulator-node' },
    });
    const live = page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: probe });
    await live.waitFor({ timeout: 30_000 });
    await expect(live.textContent()).resolves.toMatch(/Warning.*Unhealthy.*kubelet.*Pod payments-ledger-1/);
  }, 120_000);

  it('backs orders-db up now and sees the run reach Succeeded without a reload; a Redis says why it cannot', async () => {
    await signIn(portal.baseUrl);
    await step('back orders-db up now and follow the run live', async () => {
      await page.goto(`${portal.baseUrl}/databases/local/team-a/orders-db`);
      const runs = page.getByRole('table', { name: 'Backups' });
      // the demo's runs of orders-db are listed first
      await runs.getByRole('row').filter({ hasText: 'orders-db-nightly-check' }).filter({ hasText: 'Succeeded' }).waitFor({ timeout: 60_000 });
      const created = page.waitForResponse(r => r.request().method() === 'POST' && /\/instances\/orders-db\/backups$/.test(r.url()));
      await page.getByRole('button', { name: 'Back up now' }).click();
      const answer = await created;
      expect(answer.status()).toBe(201);
      const name: string = (await answer.json()).backup.metadata.name;
      expect(name).toMatch(/^orders-db-\d{14}$/);
      const row = runs.getByRole('row').filter({ hasText: name });
      await row.waitFor();
      // no reload: the phases arrive through the stream of the instance's backups
      await row.filter({ hasText: 'Succeeded' }).waitFor({ timeout: 60_000 });
      // alice is dbaas-edit in team-a: the cluster lets her back up, not delete a run, and the
      // portal offers no button the cluster would refuse
      await expect(runs.getByRole('button', { name: `Delete backup ${name}` }).isDisabled()).resolves.toBe(true);
      // the newest run that succeeded is this one, said above the runs
      await page.getByTestId('backups-last').filter({ hasText: `Last successful: ` }).filter({ hasText: `(${name})` }).waitFor();
      await runs.evaluate(el => el.closest('.MuiCard-root')?.scrollIntoView({ block: 'center' }));
      await shot('instance-backups');
    });
    await step('a Redis offers no Back up now, in its engine\'s words', async () => {
      await page.goto(`${portal.baseUrl}/databases/local/team-a/orders-cache`);
      await page.getByTestId('backup-blocker').filter({ hasText: 'redis-operator has no backup or restore objects' }).waitFor({ timeout: 60_000 });
      await expect(page.getByRole('button', { name: 'Back up now' }).isDisabled()).resolves.toBe(true);
    });
  }, 180_000);

  it('schedules backups of orders-db as a team admin, suspends the schedule and deletes it; an InnoDB Cluster\'s schedule is an entry of it', async () => {
    // alice is dbaas-edit in team-a, which writes no schedule: the page offers none until she is admin
    const undo = bindClusterRole(portal.system.emulator, { name: 'alice-admin-ui', namespace: 'team-a', clusterRole: 'dbaas-admin', user: 'user:default/alice' });
    try {
      await signIn(portal.baseUrl);
      await step('add a schedule with a retention', async () => {
        // the page asks the cluster what alice may do when it loads, and the backend keeps each
        // answer for 10 s (an earlier test's visit said "not admin"): load it until the answer is new
        const addEnabled = () =>
          page
            .waitForFunction(() => {
              const b = [...document.querySelectorAll('button')].find(x => x.textContent === 'Add schedule');
              return !!b && !b.disabled;
            }, undefined, { timeout: 5_000 })
            .then(() => true, () => false);
        const until = Date.now() + 60_000;
        for (;;) {
          await page.goto(`${portal.baseUrl}/databases/local/team-a/orders-db`);
          await page.getByTestId('schedules-none').waitFor({ timeout: 60_000 });
          if (await addEnabled()) break;
          if (Date.now() > until) throw new Error('Add schedule stayed disabled for a dbaas-admin for 60 s');
        }
        await page.getByRole('button', { name: 'Add schedule' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Schedule (cron)').fill('30 2 * * *');
        await dialog.getByLabel('Retention').fill('14d');
        const created = page.waitForResponse(r => r.request().method() === 'POST' && /\/instances\/orders-db\/schedules$/.test(r.url()));
        await confirmInDialog('Add schedule');
        expect((await created).status()).toBe(201);
        const schedules = page.getByRole('table', { name: 'Backup schedules' });
        // retention as the operator keeps it (a Go duration), live through the stream of the schedules
        await schedules.getByRole('row').filter({ hasText: 'orders-db-backups' }).filter({ hasText: '30 2 * * *' }).filter({ hasText: '336h (14d)' }).waitFor();
        const kept = portal.system.emulator.store.get({ group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'backups' }, 'team-a', 'orders-db-backups') as any;
        expect(kept.spec).toMatchObject({ schedule: { cron: '30 2 * * *', suspend: false }, maxRetention: '336h' });
        await schedules.evaluate(el => el.closest('.MuiCard-root')?.scrollIntoView({ block: 'center' }));
        await shot('instance-schedules');
      });
      await step('suspend it in one click, then delete it after the warning', async () => {
        const schedules = page.getByRole('table', { name: 'Backup schedules' });
        await schedules.getByRole('button', { name: 'Suspend orders-db-backups' }).click();
        await schedules.getByRole('row').filter({ hasText: 'orders-db-backups' }).filter({ hasText: 'Suspended' }).waitFor();
        await schedules.getByRole('button', { name: 'Delete schedule orders-db-backups' }).click();
        await page.getByTestId('schedule-delete-warning').filter({ hasText: 'backups it already took are kept' }).waitFor();
        await confirmInDialog('Delete schedule');
        await page.getByTestId('schedule-notice').filter({ hasText: 'Deleted orders-db-backups' }).waitFor();
        await page.getByTestId('schedules-none').waitFor();
      });
      await step('an InnoDB Cluster\'s schedule is an entry of its spec.backupSchedules, made and deleted the same way', async () => {
        await page.goto(`${portal.baseUrl}/databases/local/team-a/payments-db`);
        await page.getByTestId('schedules-none').waitFor({ timeout: 60_000 });
        await page.getByRole('button', { name: 'Add schedule' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Schedule (cron)').fill('15 1 * * *');
        const created = page.waitForResponse(r => r.request().method() === 'POST' && /\/instances\/payments-db\/schedules$/.test(r.url()));
        await confirmInDialog('Add schedule');
        expect((await created).status()).toBe(201);
        const schedules = page.getByRole('table', { name: 'Backup schedules' });
        await schedules.getByRole('row').filter({ hasText: 'payments-db-backups' }).filter({ hasText: '15 1 * * *' }).waitFor();
        const cluster = portal.system.emulator.store.get({ group: 'mysql.oracle.com', version: 'v2', plural: 'innodbclusters' }, 'team-a', 'payments-db') as any;
        expect(cluster.spec.backupSchedules).toEqual([expect.objectContaining({ name: 'backups', schedule: '15 1 * * *', enabled: true })]);
        await schedules.getByRole('button', { name: 'Delete schedule payments-db-backups' }).click();
        await confirmInDialog('Delete schedule');
        await page.getByTestId('schedules-none').waitFor();
      });
    } finally {
      undo();
    }
  }, 180_000);

  it('restores a Succeeded run of orders-db into a new database, prefilled from the source, and sees the new one Restoring then Ready', async () => {
    await signIn(portal.baseUrl);
    const name = `orders-db-r-${Date.now().toString(36)}`;
    await step('open Restore into a new database on a Succeeded run', async () => {
      await page.goto(`${portal.baseUrl}/databases/local/team-a/orders-db`);
      const runs = page.getByRole('table', { name: 'Backups' });
      // the demo's run that succeeded: restorable once the emulated operator finished it
      const restore = runs.getByRole('button', { name: 'Restore orders-db-nightly-check into a new database' });
      await restore.waitFor({ timeout: 60_000 });
      // enabled once the engine (DatabaseEngine) and the create permission are known
      await page.waitForFunction(
        label => !(document.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement | null)?.disabled,
        'Restore orders-db-nightly-check into a new database',
      );
      await restore.click();
      const dialog = page.getByRole('dialog', { name: 'Restore into a new database' });
      await dialog.waitFor();
      expect(await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('orders-db-restored');
      expect(await dialog.getByRole('textbox', { name: 'Engine' }).inputValue()).toBe('mariadb');
      expect(await dialog.getByRole('textbox', { name: 'Topology' }).inputValue()).toBe('galera');
      // mariadb-operator has no point in time: the backup itself is restored
      expect(await dialog.getByLabel('Point in time (UTC)').count()).toBe(0);
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    });
    await step('restore: the create goes out with restoreFrom and the page moves to the new instance', async () => {
      const created = page.waitForResponse(r => r.request().method() === 'POST' && /\/namespaces\/team-a\/instances$/.test(r.url()));
      await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
      const answer = await created;
      const body = await answer.json();
      // the backend's words when it refuses, not only its status
      expect({ status: answer.status(), error: body.error?.message }).toEqual({ status: 201, error: undefined });
      expect(body.instance.spec.restoreFrom).toEqual({ backup: 'orders-db-nightly-check' });
      await page.waitForURL(new RegExp(`/databases/local/team-a/${name}$`));
    });
    await step('watch it restore, then Ready, without a reload', async () => {
      // the emulated mariadb-operator restores over a few rounds; either may be seen first on a fast machine
      await page.getByTestId('phase-banner').filter({ hasText: /^(Provisioning — Restoring|Ready)/ }).waitFor({ timeout: 60_000 });
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 90_000 });
    });
  }, 240_000);

  // One story, one case: each step needs the database the steps before made.
  it('a database for a component, its whole life: requested with a dry-run preview, watched to Ready, on the catalog page, scaled, deleted', async () => {
    await signIn(portal.baseUrl);
    let instanceUrl = '';
    await step('request a MariaDB Galera, previewed with a dry run', async () => {
      await page.goto(`${portal.baseUrl}/databases/request?entity=component:default/${COMPONENT}`);
      await pick(/^Engine/, 'mariadb');
      await pick(/^Topology/, 'galera');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(NAME);
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByTestId('dry-run-preview').waitFor();
      await shot('request-form');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(new RegExp(`/databases/[^/]+/[^/]+/${NAME}$`));
      instanceUrl = page.url();
    });
    await step('watch it reach Ready live, with the lifecycle on the timeline', async () => {
      // no reload: the phase must arrive through the event stream
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 90_000 });
      // at least two phase changes (e.g. Pending → Provisioning → Ready) on the timeline
      await page.getByTestId('timeline-entry').nth(1).waitFor();
      await shot('instance-page');
    });
    await step("show it on the component's catalog page", async () => {
      await page.goto(`${portal.baseUrl}/catalog/default/component/${COMPONENT}`);
      const row = page.getByRole('table', { name: 'Databases of this component' }).getByRole('row', { name: new RegExp(NAME) });
      await row.getByText('Ready').waitFor({ timeout: 60_000 });
      // the card sits below the catalog's own cards: bring it into the picture
      await row.evaluate(el => el.closest('.MuiCard-root')?.scrollIntoView({ block: 'center' }));
      await shot('entity-card');
    });
    await step('scale it', async () => {
      await page.goto(instanceUrl);
      await page.getByRole('button', { name: 'Scale' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Replicas' }).fill('5');
      await confirmInDialog('Scale');
      await page.getByText(/\/5$/).first().waitFor({ timeout: 60_000 });
    });
    await step('delete it after confirmation', async () => {
      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Name' }).fill(NAME);
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText(/Deleting|has been deleted/).first().waitFor({ timeout: 60_000 });
      await expect(page.getByText(/Deleting|has been deleted/).first().isVisible()).resolves.toBe(true);
    });
  }, 480_000);

  // The request form and the scale dialog are built from DatabaseEngine: no portal code names PostgreSQL.
  it('requests a PostgreSQL (CloudNativePG) with standbys, sees it Ready, scales it, pauses and resumes it, switches its primary', async () => {
    await signIn(portal.baseUrl);
    const name = `e2e-pg-${Date.now().toString(36)}`;
    await step('request a PostgreSQL replication', async () => {
      await page.goto(`${portal.baseUrl}/databases/request?entity=component:default/${COMPONENT}`);
      await pick(/^Engine/, 'postgresql');
      await pick(/^Topology/, 'replication');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      // Create is offered once the dry run has validated the request.
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByTestId('dry-run-preview').waitFor();
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(new RegExp(`/databases/[^/]+/[^/]+/${name}$`));
    });
    await step('watch it reach Ready', async () => {
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 90_000 });
      // its members, as CloudNativePG labels its pods: the first instance the primary
      const members = page.getByRole('table', { name: 'Members' });
      await members.getByRole('row').filter({ hasText: `${name}-1` }).filter({ hasText: 'Primary' }).filter({ hasText: /Ready/ }).waitFor();
      await shot('instance-page-postgresql');
    });
    await step('scale it to 4 instances', async () => {
      await page.getByRole('button', { name: 'Scale' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Replicas' }).fill('4');
      await confirmInDialog('Scale');
      await page.getByText(/\/4$/).first().waitFor({ timeout: 60_000 });
      // the new standby is listed as it comes up, without a reload
      await page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: `${name}-4` }).filter({ hasText: 'Replica' }).waitFor({ timeout: 60_000 });
    });
    await step('pause it (hibernation) and resume it', async () => {
      await page.getByRole('button', { name: 'Pause' }).click();
      await confirmInDialog('Pause');
      await page.getByTestId('phase-banner').filter({ hasText: /^Paused/ }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Resume' }).click();
      await confirmInDialog('Resume');
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 90_000 });
      await expect(page.getByRole('button', { name: 'Pause' }).isEnabled()).resolves.toBe(true);
    });
    await step('switch its primary to a standby', async () => {
      const members = page.getByRole('table', { name: 'Members' });
      // every standby ready again after the resume, so the dialog offers them
      await members.getByRole('row').filter({ hasText: `${name}-4` }).filter({ hasText: /Ready/ }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Switch primary' }).click();
      await pick(/^New primary/, `${name}-3`);
      await confirmInDialog('Switch');
      // CloudNativePG promotes it (the emulated operator, as the real one): the members say so, live
      await members.getByRole('row').filter({ hasText: `${name}-3` }).filter({ hasText: 'Primary' }).waitFor({ timeout: 60_000 });
      await members.getByRole('row').filter({ hasText: `${name}-1` }).filter({ hasText: 'Replica' }).waitFor({ timeout: 60_000 });
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 60_000 });
    });
  }, 300_000);
});

describe('the portal for a user who may read but not change', () => {
  let readOnly: Portal;

  beforeAll(async () => {
    // carol of the platform team: reads every database, changes none (see app-config.yaml)
    readOnly = await openPortal({
      guest: { userEntityRef: 'user:default/carol', ownershipEntityRefs: ['user:default/carol', 'group:default/platform'] },
    });
  }, 300_000);
  afterAll(() => closePortal(readOnly), 60_000);

  it('does not offer the actions or the credentials', async () => {
    await signIn(readOnly.baseUrl);
    await page.goto(`${readOnly.baseUrl}/databases/local/team-a/orders-db`);
    await page.getByTestId('phase-banner').waitFor();
    await page.getByText(/You may not see the credentials/).waitFor();
    for (const label of ['Scale', 'Upgrade', 'Delete']) {
      await expect(page.getByRole('button', { name: label, exact: true }).isDisabled()).resolves.toBe(true);
    }
    await expect(page.getByRole('button', { name: /Reveal connection details/ }).count()).resolves.toBe(0);
  }, 120_000);
});
