import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ANNOTATION_OWNER,
  ANNOTATION_REQUESTED_BY,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { portalSession, SCREENSHOTS, SCREENSHOT_REFRESH } from './support/portalSession';
import { guestToken, startPortal, type Portal } from './support/startPortal';

/**
 * The Scaffolder's Create page (@backstage/plugin-scaffolder on the new frontend system) running
 * catalog/templates/new-service-with-database as the guest, alice of team-a: the form with its
 * OwnerPicker, the review, the task page until the databases:instance:* steps are done, and the
 * output link to the instance's page.
 */
const TEMPLATE = 'New service with its own database';
const STEPS = ['Request the database', 'Wait until the database is Ready', 'Write the service skeleton'];

let portal: Portal;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
const { shot, signIn: signInAt, pick } = portalSession(() => page);
const signIn = (baseUrl: string) => signInAt(baseUrl, 'Create');

/** Runs one step of a story; a failure names the step and says what the page showed. */
async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (err) {
    // kept outside SCREENSHOTS, which is removed at the end
    const picture = path.join(tmpdir(), `scaffolder-failure-${Date.now().toString(36)}.png`);
    await page.screenshot({ path: picture, fullPage: true }).catch(() => undefined);
    const shown = await page.locator('body').innerText({ timeout: 2_000 }).catch(() => '(unreadable)');
    throw new Error(`step "${name}": ${(err as Error).message}\n--- the page (${page.url()}, ${picture}) showed:\n${shown.slice(0, 3_000)}`);
  }
}

interface TaskEvent {
  type: string;
  body: { stepId?: string; status?: string; message?: string };
}

/** The task's status and the last status each step reported, from the scaffolder's API. */
async function taskRecord(taskId: string) {
  const token = await guestToken(portal.baseUrl);
  const get = async (p: string) => {
    const res = await fetch(`${portal.baseUrl}/api/scaffolder/v2/tasks/${taskId}${p}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET task ${taskId}${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const task = (await get('')) as { status: string };
  const events = (await get('/events')) as TaskEvent[];
  const steps: Record<string, string> = {};
  for (const e of events) if (e.body.stepId && e.body.status) steps[e.body.stepId] = e.body.status;
  return { status: task.status, steps };
}

/** Opens the template from the Create page and fills its two form pages, then reviews and creates. */
async function runTemplate(values: { name: string; namespace: string }): Promise<string> {
  await page.goto(`${portal.baseUrl}/create`);
  const card = page.locator('article, .MuiCard-root').filter({ hasText: TEMPLATE }).first();
  await card.waitFor();
  await card.getByRole('button', { name: 'Choose' }).click();
  await page.waitForURL(/\/create\/templates\/default\/new-service-with-database/);

  // page 1: Service (the owner through the OwnerPicker, which lists the catalog's groups)
  await page.getByRole('textbox', { name: /^Name\b/ }).fill(values.name);
  await page.getByRole('textbox', { name: /^Description\b/ }).fill('Made by the scaffolder browser test');
  const owner = page.getByRole('textbox', { name: /^Owner\b/ });
  await owner.click();
  // the options are the groups' titles (Team A), filtered by what is typed
  await owner.fill('Team A');
  await page.getByRole('option', { name: 'Team A' }).click();
  await shot('scaffolder-form-service');
  await page.getByRole('button', { name: 'Next' }).click();

  // page 2: Database
  const cluster = page.getByRole('textbox', { name: /^Cluster\b/ });
  await cluster.waitFor();
  await cluster.fill('local');
  await page.getByRole('textbox', { name: /^Namespace\b/ }).fill(values.namespace);
  await pick(/^Engine\b/, 'postgresql');
  await pick(/^Size\b/, 'small');
  await page.getByRole('button', { name: 'Review' }).click();

  // review, then create: the task page
  await page.getByText(values.name, { exact: true }).first().waitFor();
  await page.getByText(values.namespace, { exact: true }).first().waitFor();
  await shot('scaffolder-review');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/create\/tasks\/[^/]+$/);
  return decodeURIComponent(page.url().split('/').pop()!);
}

/**
 * Searches the task page's log for `search` and waits for a log line matching `line` (default:
 * holding `search`). The log is a virtualised viewer (only the lines in view are in the page);
 * its search scrolls to the first match. The viewer is the innermost element holding both its
 * search field and numbered lines, so an error banner above it does not count.
 */
async function findInLog(search: string, line: string | RegExp = search) {
  const searchField = page.getByPlaceholder('Search');
  await searchField.fill(search);
  const log = page.locator('div').filter({ has: searchField }).filter({ has: page.locator('a[href^="#line-"]') }).last();
  await log.getByText(line).first().waitFor();
}

/** Waits until the task page says the run ended: the progress bar full, "Start Over" enabled. */
async function waitForTaskEnd(timeout: number) {
  await page.getByRole('progressbar').and(page.locator('[aria-valuenow="100"]')).first().waitFor({ timeout });
  await page.getByTestId('start-over-button').and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
}

afterAll(() => {
  if (!SCREENSHOT_REFRESH) rmSync(SCREENSHOTS, { recursive: true, force: true });
});

describe("the Scaffolder's Create page in a browser", () => {
  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(30_000);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  }, 60_000);

  it('runs "New service with its own database" to a Ready database, linked from the task page', async () => {
    await signIn(portal.baseUrl);
    const name = `e2e-svc-${Date.now().toString(36)}`;
    const database = `${name}-db`;
    let taskId = '';
    await step('fill the form (owner through the OwnerPicker), review and create', async () => {
      taskId = await runTemplate({ name, namespace: 'team-a' });
    });
    await step('watch the task page until the run completes', async () => {
      await waitForTaskEnd(180_000);
      for (const s of STEPS) await page.getByTestId('step-label').filter({ hasText: s }).waitFor();
      // the template's output text, shown once the run has its outputs
      await page.getByText(`Database ${database} is Ready in local/team-a.`).waitFor();
      // the logs open by themselves at the end; the wait step's last word
      await findInLog(`local/team-a/${database} is Ready`);
      await shot('scaffolder-task');
    });
    await step('every step completed (the scaffolder says so too)', async () => {
      await expect(taskRecord(taskId)).resolves.toEqual({
        status: 'completed',
        steps: { database: 'completed', ready: 'completed', skeleton: 'completed' },
      });
    });
    await step('the output link leads to the instance page', async () => {
      await page.getByRole('link', { name: 'The database in the portal' }).click();
      await page.waitForURL(new RegExp(`/databases/local/team-a/${database}$`));
      await page.getByTestId('phase-banner').filter({ hasText: /^Ready/ }).waitFor({ timeout: 60_000 });
    });
    await step('the DatabaseInstance exists: PostgreSQL, owned by team-a, requested by alice, labelled for the new component', async () => {
      const token = await guestToken(portal.baseUrl);
      const res = await fetch(`${portal.baseUrl}/api/databases/clusters/local/namespaces/team-a/instances/${database}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const { instance } = (await res.json()) as { instance: DatabaseInstance };
      expect(instance.spec.engine).toBe('postgresql');
      expect(instance.status?.phase).toBe('Ready');
      expect(instance.metadata.annotations).toMatchObject({
        [ANNOTATION_OWNER]: 'group:default/team-a',
        [ANNOTATION_REQUESTED_BY]: 'user:default/alice',
      });
      expect(instance.metadata.labels).toMatchObject({ [LABEL_BACKSTAGE_KUBERNETES_ID]: name });
    });
  }, 360_000);

  it('a namespace without RBAC for alice (team-b): the task fails with the refusal in its log', async () => {
    await signIn(portal.baseUrl);
    const name = `e2e-refused-${Date.now().toString(36)}`;
    let taskId = '';
    await step('run the template for team-b', async () => {
      taskId = await runTemplate({ name, namespace: 'team-b' });
    });
    await step('the task page shows the failure and the refusal', async () => {
      await waitForTaskEnd(120_000);
      // the portal's refusal, as the databases API answers it (Kubernetes RBAC's 403 for alice)
      await findInLog(
        'is forbidden',
        /NotAllowedError: local: databaseinstances\.dbaas\.platform\.dev.*is forbidden: User "user:default\/alice" cannot create resource "databaseinstances".*in the namespace "team-b"/,
      );
      await shot('scaffolder-task-refused');
    });
    await step('the first step failed, nothing after it ran, no instance', async () => {
      const record = await taskRecord(taskId);
      expect(record).toEqual({ status: 'failed', steps: { database: 'failed', ready: 'skipped', skeleton: 'skipped' } });
      expect(portal.system.apiserver.store.get('team-b', `${name}-db`)).toBeUndefined();
    });
  }, 240_000);
});
