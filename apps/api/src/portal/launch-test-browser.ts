import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from '../test-support/shared-paths.ts';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the portal's screenshots go: test-artifacts/portal always, docs/portal too with UPDATE_PORTAL_SCREENSHOTS=1. */
export const SCREENSHOT_DIRS = [
  join(REPO_ROOT, 'test-artifacts', 'portal'),
  ...(process.env.UPDATE_PORTAL_SCREENSHOTS === '1' ? [join(REPO_ROOT, 'docs', 'portal')] : []),
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless chromium with a fresh profile (no sandbox: CI runs as root), no background traffic;
 * `extraArgs` are added to its command line (e.g. the fake microphone of the Live page's test).
 */
export async function launchTestBrowser(viewport = { width: 1280, height: 900 }, extraArgs: readonly string[] = []): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    acceptDownloads: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a PNG of `page` as `name` into every SCREENSHOT_DIRS folder. */
export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<void> {
  const image = await page.screenshot({ fullPage, animations: 'disabled' });
  for (const dir of SCREENSHOT_DIRS) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${name}.png`), image);
  }
}
