import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './startPortal';

// Screenshots go to a temporary folder; `yarn screenshots` writes the README's (docs/screenshots).
export const SCREENSHOT_REFRESH = process.env.DBAAS_SCREENSHOTS_DIR;
export const SCREENSHOTS = SCREENSHOT_REFRESH
  ? path.resolve(repoRoot, SCREENSHOT_REFRESH)
  : mkdtempSync(path.join(tmpdir(), 'dbaas-screenshots-'));

/** What the browser tests do on a page of the portal. */
export function portalSession(page: () => Page) {
  return {
    async shot(name: string) {
      await page().screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
    },
    /** Signs in through the guest card (unless this browser already has) and waits for the link `landmark`. */
    async signIn(baseUrl: string, landmark: string) {
      await page().goto(baseUrl);
      const enter = page().getByRole('button', { name: /enter/i });
      const app = page().getByRole('link', { name: landmark }).first();
      await enter.or(app).first().waitFor();
      if (await enter.isVisible()) await enter.click();
      await app.waitFor();
    },
    async pick(label: RegExp, option: string | RegExp) {
      await page().getByRole('button', { name: label }).click();
      await page().getByRole('option', { name: option }).click();
    },
  };
}
