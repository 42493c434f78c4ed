import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import OpenAI from 'openai';
import Replicate from 'replicate-1.4';
import { createPortalLoginLink, saveBotUserLocale, saveBotUserProfile } from '@transcribe/core';
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
      // The refused forms this test sends on purpose answer 422, which Chrome logs as a failed load.
      const refusedForm = /status of 422/.test(message.text()) && message.location().url.endsWith('/portal/transcribe');
      if (message.type() === 'error' && !refusedForm) problems.push(`console: ${message.text()} (${message.location().url})`);
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

  it('should sign in with the one-time link the bot sends for /portal, and greet the person by their Telegram name', async () => {
    // What the bot's /portal command does: note the person's name and Telegram language, make the link.
    await saveBotUserProfile(test.service.ctx.database.db, '1001', { displayName: 'Anna Smith', telegramLanguage: 'en-GB' });
    const link = await createPortalLoginLink(test.service.ctx, 'telegram:1001');
    await page.goto(`${link.url}&lang=en`);
    await expect.poll(() => page.title()).toBe('Sign in · Transcription portal');
    await saveScreenshot(page, '01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/portal$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Transcription portal');
    expect(await page.locator('main').textContent()).toContain('Welcome, Anna Smith.');
    expect(await page.locator('header .who').textContent()).toBe('Signed in as Anna Smith');
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
    // The curl example starts with its export line; each client's base URL is named, and works.
    expect((await page.locator('#code-curl').textContent())?.split('\n')[0]).toBe(`export TRANSCRIBE_API_KEY="${key}"`);
    const bases = await page.locator('ul.base-urls li code').allTextContents();
    const root = new URL(page.url()).origin;
    expect(bases).toEqual([`${root}/v1/replicate`, `${root}/v1/replicate/v1`, `${root}/v1`]);
    expect(await page.locator('#code-openai').textContent()).toContain(`base_url="${root}/v1"`);
    await saveScreenshot(page, '04-new-key');
    const listed = await apiClient(key).predictions.list();
    expect(listed.results).toEqual([]);
    const models = await new OpenAI({ apiKey: key, baseURL: `${test.url}/v1` }).models.list(); // the OpenAI-compatible endpoint
    expect(models.data.map((model) => model.id)).toContain('whisper-1');
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

  it('should point a refused form at its field, and link a list of languages that opens in the browser', async () => {
    await page.getByRole('link', { name: 'Transcribe' }).click();
    await saveScreenshot(page, '05-transcribe');
    // The steps after the transcript carry the bot's labels, not the API's names and spec text.
    expect(await page.locator('fieldset.post-process .choice').first().textContent()).toBe(' Summary');
    expect(await page.locator('main').textContent()).not.toMatch(/Map of labels|speaker_names/);
    await page.getByLabel('Link to a recording').fill('https://example.com/talk.mp3');
    await page.getByRole('checkbox', { name: /^Translation/ }).check();
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const summary = page.locator('#form-error');
    await summary.waitFor({ state: 'visible' });
    expect(await summary.textContent()).toMatch(/target_language is required/);
    expect(await summary.textContent()).not.toMatch(/https?:\/\//); // no link to the API's list, which needs a key
    const field = page.locator('#target-language');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`#${describedBy.split(' ')[0]}`).textContent()).toMatch(/target_language is required/);
    await summary.getByRole('link', { name: 'Please check the marked field:' }).click();
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('target-language');
    await saveScreenshot(page, '13-form-error');
    await summary.getByRole('link', { name: 'list of languages' }).click();
    await page.getByRole('heading', { level: 1, name: 'Languages' }).waitFor();
    const english = page.locator('table.languages tr', { hasText: 'English' }).first();
    expect(await english.locator('td').allTextContents()).toEqual(['English', 'en', 'yes']);
    await saveScreenshot(page, '14-languages', false);
    await page.goBack();
  });

  it('should upload jfk.wav with a progress bar and follow it to the transcript', async () => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Transcribe' }).click();
    await page.getByLabel('Audio or video file').setInputFiles(join(AUDIO_DIR, 'jfk.wav'));
    await page.getByLabel('Output format').selectOption('text');
    await page.getByRole('checkbox', { name: 'Summary' }).check();
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
    expect(await page.getByRole('heading', { name: 'Summary summary' }).count()).toBe(1);
    await saveScreenshot(page, '08-transcript');
  });

  it('should download the transcript in every format, .docx and .pdf too', async () => {
    const links = page
      .getByRole('list')
      .filter({ has: page.getByRole('link', { name: /SRT subtitles/ }) })
      .getByRole('link');
    expect(await links.allTextContents()).toEqual([
      'Text (.txt)',
      'SRT subtitles (.srt)',
      'Word document (.docx)',
      'PDF (.pdf)',
      'LRC (.lrc)',
      'JSON (.json)',
      'JSON2 (.json2.json)',
      'Post-processing results (.json)',
    ]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /SRT subtitles/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^transcript-[a-z2-7]{26}\.srt$/);
    expect(await readFile((await download.path())!, 'utf8')).toMatch(/00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}/);
    for (const [name, extension, magic] of [
      [/Word document/, 'docx', 'PK'],
      [/^PDF/, 'pdf', '%PDF-'],
    ] as const) {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
      expect(file.suggestedFilename()).toMatch(new RegExp(`^transcript-[a-z2-7]{26}\\.${extension}$`));
      expect((await readFile((await file.path())!)).subarray(0, magic.length).toString('latin1')).toBe(magic);
    }
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

  it('should speak Russian when the person’s bot language is Russian, in the same catalogs as the bot', async () => {
    await saveBotUserLocale(test.service.ctx.database.db, '1001', 'ru'); // what /language ru stores
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Home' }).click();
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Портал расшифровки');
    expect(await page.locator('main').textContent()).toContain('Здравствуйте, Anna Smith!');
    await saveScreenshot(page, '15-home-ru');
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Расшифровать' }).click();
    expect(await page.getByRole('checkbox', { name: 'Краткое содержание' }).count()).toBe(1);
    expect(await page.getByLabel('Язык', { exact: true }).locator('option').allTextContents()).toEqual([
      'Определить автоматически',
      'Английский (en)',
    ]);
    await page.getByLabel('Ссылка на запись').fill('https://example.com/talk.mp3');
    await page.getByRole('checkbox', { name: /^Перевод/ }).check();
    await page.getByRole('button', { name: 'Расшифровать' }).click();
    await page.locator('#target_language-error').waitFor();
    expect(await page.locator('#target_language-error').textContent()).toBe(
      'Выберите язык перевода для «Перевод» и «Переведённые субтитры» (и только для них).',
    );
    expect(await page.locator('#form-error').getByRole('link', { name: 'список языков' }).getAttribute('href')).toBe('/portal/languages');
    await saveScreenshot(page, '16-transcribe-ru');
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Расход' }).click();
    const row = page.locator('table.usage tbody tr').first();
    expect((await row.locator('td').allTextContents()).slice(1)).toEqual(['jfk.wav', 'Портал', 'готово', '0:11', 'списано 0:11']);
    await saveScreenshot(page, '17-usage-ru');
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Расшифровка' }).waitFor();
    expect(await page.getByRole('heading', { name: /^Краткое содержание/ }).count()).toBe(1);
    await saveScreenshot(page, '18-transcript-ru');
    await saveBotUserLocale(test.service.ctx.database.db, '1001', null); // back to the Telegram language (English)
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
  });

  it('should render the API reference without spec section numbers, and sign out', async () => {
    await page.getByRole('link', { name: 'API reference' }).click();
    expect(await page.locator('#op-createModelPrediction h3').textContent()).toBe(
      'POST /v1/replicate/v1/models/service/transcribe/predictions',
    );
    expect(await page.locator('main').textContent()).not.toMatch(/\bspec \d/i);
    await saveScreenshot(page, '12-reference', false);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/signed_out=1$/);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out.');
    expect(problems).toEqual([]); // no script errors, no refused resources (CSP), no missing files
    await page.goto(`${test.url}/portal/usage`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Please sign in');
  });
});
