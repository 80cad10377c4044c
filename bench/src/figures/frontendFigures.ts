import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { repoRoot } from '../system/ApiserverProcess';
import type { BackstageProcess } from '../system/BackstageProcess';
import type { SizeContext } from './types';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The backend serves packages/app/dist: build it once when missing (about a minute). */
function ensureAppBuilt(log: (m: string) => void) {
  if (existsSync(path.join(repoRoot, 'packages/app/dist/index.html'))) return;
  log('  building packages/app (first run only)');
  const r = spawnSync(process.execPath, [path.join(repoRoot, '.yarn/releases/yarn-4.13.0.cjs'), 'workspace', 'app', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error('yarn workspace app build failed');
}

/**
 * The Databases page in headless Chromium, served by the real backend with every instance
 * behind it: time from navigation to the first data row, for fresh navigations (the app's code
 * is in the browser's cache after the first one, as for a user who has the portal open); and how
 * many table rows the page keeps in the DOM (it pages, so scrolling stays light).
 */
export async function frontendFigures(ctx: SizeContext, backstage: BackstageProcess): Promise<Figure[]> {
  ensureAppBuilt(ctx.log);
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'dbaas-bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(backstage.baseUrl);
    await page.getByRole('button', { name: /enter/i }).click();
    await page.getByRole('link', { name: 'Databases' }).first().waitFor();
    const firstRow = () => page.getByRole('table', { name: 'Databases' }).getByRole('row').nth(1).waitFor();
    const runs = Math.max(3, Math.min(10, ctx.iterations.watchRounds));
    const times: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(`${backstage.baseUrl}/databases`);
      await firstRow();
      if (i > 0) times.push(performance.now() - started);
    }
    const rows = await page.getByRole('table', { name: 'Databases' }).getByRole('row').count();
    const total = (await page.getByTestId('total-count').textContent()) ?? '';
    const s = summarize(times);
    return [
      makeFigure('frontend: Databases page first rows p50', ctx.size, s.p50, 'ms', ctx.size === 10_000 ? { op: '<=', value: 1500 } : undefined,
        `navigation → first data row, headless Chromium; worst of ${s.n}: ${Math.max(...times).toFixed(0)} ms; page says "${total.trim()}"`),
      makeFigure('frontend: table rows in the DOM', ctx.size, rows - 1, 'rows', { op: '<=', value: 100 },
        `paginated: the page renders one page, not all ${ctx.size}`),
    ];
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
