import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import Replicate from 'replicate-1.4';
import { createPortalLoginLink } from '@transcribe/core';
import { type ChatServer, replyLikeAModel, startChatServer } from '@transcribe/core/testing';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from './launch-test-browser.ts';

/** Run in the page (the project compiles without the DOM library, so page code is a string). */
const OVERFLOW_CHECK = `[...document.querySelectorAll('body *')]
  .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5 && !element.closest('.table-scroll, pre'))
  .map((element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (element.className ? '.' + element.className : ''))`;

/**
 * The portal end to end in a real browser: from the bot's /portal link to a working API
 * key and a transcript, without reading docs. The steps run in order on one signed-in page.
 */
describe('account portal in chromium', () => {
  let test: TestService;
  let chat: ChatServer;
  let browser: TestBrowser;
  let page: Page;
  const problems: string[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    chat = await startChatServer(replyLikeAModel); // a local OpenAI-compatible model for post-processing
    test = await startTestService('postgres', { WORKER_CONCURRENCY: '1', LLM_BASE_URL: chat.baseUrl });
    browser = await launchTestBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await test?.stop();
    await chat?.close();
  });

  /** Elements sticking out on the right of the viewport, outside scrollable regions (empty on a good phone layout). */
  const overflowing = () => page.evaluate<string[]>(OVERFLOW_CHECK);
  const apiClient = (key: string) => new Replicate({ auth: key, baseUrl: `${test.url}/v1/replicate/v1` });
  const newKeyOnPage = async () => {
    const key = await page.locator('#new-key').inputValue();
    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    keys.push(key);
    return key;
  };

  it('should sign in with the one-time link the bot sends for /portal', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'telegram:1001'); // what the bot's /portal command calls
    await page.goto(link.url);
    await expect.poll(() => page.title()).toBe('Sign in · Transcription portal');
    await saveScreenshot(page, '01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/portal$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Transcription portal');
    expect(await page.locator('main').textContent()).toContain('Welcome, Telegram user 1001.');
    await saveScreenshot(page, '02-home');
  });

  it('should get a key, copy it with the keyboard, and use it with the JS client', async () => {
    await page.getByRole('link', { name: 'Get your API key' }).click();
    expect(await page.locator('main').textContent()).toContain('You have no API key yet.');
    await saveScreenshot(page, '03-api-key');
    await page.getByRole('button', { name: 'Get key' }).click();
    const key = await newKeyOnPage();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await page.locator('#new-key').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
    expect(await page.locator('#code-shell').textContent()).toBe(`export TRANSCRIBE_API_KEY="${key}"`);
    await saveScreenshot(page, '04-new-key');
    const listed = await apiClient(key).predictions.list();
    expect(listed.results).toEqual([]);
  });

  it('should reissue the key and see the old one refused by the API', async () => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'API key' }).click();
    expect(await page.locator('main table').textContent()).toContain(keys[0]!.slice(0, 10));
    await page.getByRole('radio', { name: 'Right away' }).check();
    await page.getByRole('button', { name: 'Get key' }).click();
    const key = await newKeyOnPage();
    expect(await page.locator('main').textContent()).toContain('Your previous key no longer works.');
    await expect(apiClient(keys[0]!).predictions.list()).rejects.toThrow(/401/);
    expect((await apiClient(key).predictions.list()).results).toEqual([]);
  });

  it('should upload jfk.wav with a progress bar and follow it to the transcript', async () => {
    await page.getByRole('link', { name: 'Transcribe' }).click();
    await saveScreenshot(page, '05-transcribe');
    await page.getByLabel('Audio or video file').setInputFiles(join(AUDIO_DIR, 'jfk.wav'));
    await page.getByLabel('Output format').selectOption('text');
    await page.getByRole('checkbox', { name: /^summary – / }).check();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 96 * 1024,
    });
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await page.locator('#upload-progress').waitFor({ state: 'visible' });
    await expect
      .poll(() => page.locator('#upload-bar').evaluate((bar) => (bar as unknown as { value: number }).value), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await saveScreenshot(page, '06-uploading');
    await page.waitForURL(/\/portal\/predictions\/[a-z2-7]{26}$/, { timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const recognising = page.getByText(/Recognising speech|Looking for speech/);
    await Promise.race([
      recognising.waitFor({ timeout: 60_000 }),
      page.getByRole('heading', { level: 1, name: 'Transcript' }).waitFor({ timeout: 60_000 }),
    ]);
    if (await recognising.count()) await saveScreenshot(page, '07-progress');
    await page.getByRole('heading', { level: 1, name: 'Transcript' }).waitFor({ timeout: 120_000 });
    const transcript = await page.locator('ol.transcript').textContent();
    expect(transcript).toMatch(/country/i);
    expect(transcript).toMatch(/00:0\d\.\d/);
    expect(await page.getByRole('heading', { name: 'summary' }).count()).toBe(1);
    await saveScreenshot(page, '08-transcript');
  });

  it('should download the transcript in every format', async () => {
    const links = page
      .getByRole('list')
      .filter({ has: page.getByRole('link', { name: /SRT subtitles/ }) })
      .getByRole('link');
    expect(await links.allTextContents()).toEqual([
      'Text (.txt)',
      'SRT subtitles (.srt)',
      'LRC (.lrc)',
      'JSON (.json)',
      'JSON2 (.json2.json)',
      'Post-processing results (.json)',
    ]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /SRT subtitles/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^transcript-[a-z2-7]{26}\.srt$/);
    expect(await readFile((await download.path())!, 'utf8')).toMatch(/00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}/);
  });

  it('should show the transcription in the usage table and chart', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    const row = page.locator('table.usage tbody tr').first();
    expect((await row.locator('td').allTextContents()).slice(1)).toEqual(['jfk.wav', 'Portal', 'succeeded', '0:11', '0:11 charged']);
    expect(await page.locator('svg[role="img"] title#chart-title').textContent()).toBe('Audio minutes per day');
    await saveScreenshot(page, '09-usage');
  });

  it('should work on a phone screen with every field labelled and a skip link first', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Transcribe' }).click();
    const unlabelled = await page
      .locator('main input:not([type=hidden]), main select, main textarea')
      .evaluateAll((fields) =>
        fields.filter((field) => (field as unknown as { labels: unknown[] }).labels.length === 0).map((field) => field.id),
      );
    expect(unlabelled).toEqual([]);
    expect(await overflowing()).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
    await saveScreenshot(page, '10-transcribe-phone');
    await page.goBack();
    await page
      .getByRole('link', { name: /^2\d{3}-/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Transcript' }).waitFor();
    expect(await overflowing()).toEqual([]);
    await saveScreenshot(page, '11-transcript-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('should render the API reference and sign out', async () => {
    await page.getByRole('link', { name: 'API reference' }).click();
    expect(await page.locator('#op-createModelPrediction h3').textContent()).toBe(
      'POST /v1/replicate/v1/models/service/transcribe/predictions',
    );
    await saveScreenshot(page, '12-reference', false);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/signed_out=1$/);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out.');
    expect(problems).toEqual([]); // no script errors, no refused resources (CSP), no missing files
    await page.goto(`${test.url}/portal/usage`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Please sign in');
  });
});
