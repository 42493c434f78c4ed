import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPortalLoginLink, listVoices } from '@transcribe/core';
import { writeReaderThenJfk } from '../test-support/join-clips.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from './launch-test-browser.ts';

/**
 * Speakers and voices in a real browser (docs/portal.md, "Speakers and voices"): a two-speaker
 * conversation (a LibriVox reader, then JFK) transcribed from a link in the portal, a speaker renamed
 * with "Remember this voice", the voice on the Voices page with an excerpt Chromium can play, then deleted.
 */
describe('portal speakers and voices in chromium', () => {
  let test: TestService;
  let host: FileServer;
  let work: string;
  let browser: TestBrowser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'portal-voices-browser-'));
    await writeReaderThenJfk(join(work, 'talk.wav'));
    host = await serveFiles(work);
    test = await startTestService('postgres', { WORKER_CONCURRENCY: '1' });
    browser = await launchTestBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await test?.stop();
    await host?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('should transcribe a two-speaker conversation from a link and list both speakers with rename forms', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'telegram:1101');
    await page.goto(`${link.url}&lang=en`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/portal$/);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Transcribe' }).click();
    await page.getByLabel('Link to a recording').fill(`${host.url}/talk.wav`);
    await page.getByLabel(/Number of speakers/).fill('2');
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transcript' }).waitFor({ timeout: 150_000 });
    const speakers = page.locator('#speakers');
    expect(await speakers.locator('.speaker').allTextContents()).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(await speakers.getByRole('checkbox', { name: 'Remember this voice' }).count()).toBe(2);
  }, 180_000);

  it('should rename a speaker and remember the voice', async () => {
    const form = page.locator('form.rename-form', { has: page.locator('input[name="label"][value="SPEAKER_1"]') });
    await form.getByLabel('New name for SPEAKER_1').fill('Reader');
    await form.getByRole('checkbox', { name: 'Remember this voice' }).check();
    await form.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').filter({ hasText: 'voice remembered as Reader' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('#speakers .speaker').allTextContents()).toEqual(['Reader', 'SPEAKER_2']);
    expect(await page.locator('ol.transcript .speaker').first().textContent()).toBe('Reader'); // the reader opens
    expect(await page.locator('ol.transcript').textContent()).not.toContain('SPEAKER_1');
    await saveScreenshot(page, '19-speakers-renamed');
    const stored = await listVoices(test.service.ctx.database.db, 'telegram:1101');
    expect(stored.map((voice) => voice.name)).toEqual(['Reader']);
  }, 90_000);

  it('should show the voice on the Voices page with an excerpt the browser plays, and delete it', async () => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Voices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Voices' }).waitFor();
    const row = page.locator('table.voices tbody tr', { hasText: 'Reader' });
    expect(await row.count()).toBe(1);
    const audio = row.locator('audio');
    expect(await audio.getAttribute('aria-label')).toBe('Excerpt of Reader');
    const seconds = await audio.evaluate(
      (element) =>
        new Promise<number>((resolve, reject) => {
          const media = element as unknown as {
            duration: number;
            preload: string;
            load(): void;
            addEventListener(type: string, listener: () => void): void;
          };
          media.addEventListener('loadedmetadata', () => resolve(media.duration));
          media.addEventListener('error', () => reject(new Error('the excerpt did not load')));
          media.preload = 'metadata';
          media.load();
        }),
    );
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThanOrEqual(30.5);
    await saveScreenshot(page, '20-voices');
    await row.getByRole('button', { name: 'Delete the voice Reader' }).click();
    await page.getByRole('status').filter({ hasText: 'The voice was deleted' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('You have no voices yet.');
    expect(await listVoices(test.service.ctx.database.db, 'telegram:1101')).toEqual([]);
    expect(problems).toEqual([]); // no script errors, no refused resources (CSP)
  }, 60_000);
});
