import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPortalLoginLink, endPortalSession, predictions } from '@transcribe/core';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { LIVE_SOCKET_PATH } from './authenticate-live-socket.ts';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from './launch-test-browser.ts';
import { SESSION_COOKIE } from './portal-session.ts';

/** jfk.wav (reference: "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."). */
const CLIP = join(AUDIO_DIR, 'jfk.wav');
/** Words of the reference that PocketSphinx's common mistakes do not produce by chance. */
const DISTINCTIVE = ['fellow', 'americans', 'ask', 'country'];

/** Records, in the page, every CSP violation (added before any page script runs; not subject to the page's CSP). */
const RECORD_VIOLATIONS = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.violatedDirective + ' ' + event.blockedURI));`;

/**
 * The portal's Live page in chromium with a fake microphone playing jfk.wav (it loops), the
 * realtime WebSocket on PocketSphinx behind it: the clip's words appear, each phrase with its times,
 * under the portal's CSP, and a refused credential is told on the page.
 */
describe('the portal Live page in chromium', () => {
  let test: TestService;
  let browser: TestBrowser;
  let page: Page;
  const problems: string[] = [];
  const sockets: string[] = [];
  let serviceStopped = false;

  beforeAll(async () => {
    await access(CLIP); // chromium plays its own beeps when the file is missing: say so here instead
    test = await startTestService('pglite', {
      LIVE_MAX_SESSIONS_PER_KEY: '2',
      SHUTDOWN_TIMEOUT_MS: '3000', // the last test stops the service: not 30 s waiting for the browser's keep-alive connections
    });
    browser = await launchTestBrowser(undefined, [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${CLIP}`,
      '--autoplay-policy=no-user-gesture-required',
    ]);
    await browser.context.addInitScript(RECORD_VIOLATIONS);
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('websocket', (socket) => sockets.push(socket.url()));
  });

  afterAll(async () => {
    await browser?.close();
    if (serviceStopped)
      await rm(test.dataDir, { recursive: true, force: true }); // the last test stopped the service
    else await test?.stop();
  });

  const phrases = () => page.locator('#live-turns li');
  /** The portal's origin as the browser sees it (sign-in links are built from PUBLIC_BASE_URL: http://localhost:PORT). */
  const origin = () => new URL(page.url()).origin;
  const violations = () => page.evaluate<string[]>('window.__violations');

  it('should show the clip’s words as they are spoken, and list each phrase with its start and end times', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'portal:ana');
    await page.goto(`${link.url}&lang=en`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/portal$/);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Live' }).click();
    await page.getByRole('heading', { level: 1, name: 'Live transcription' }).waitFor();
    expect(await page.locator('#live-status').textContent()).toBe('Press Start and allow the microphone.');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    // The clip's words, as PocketSphinx hears each phrase the server's VAD cuts (the clip loops).
    const heard = async () => {
      const text = ((await phrases().allTextContents()).join(' ') ?? '').toLowerCase();
      return DISTINCTIVE.filter((word) => new RegExp(`\\b${word}\\b`).test(text));
    };
    await expect.poll(async () => (await heard()).length, { timeout: 240_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#live-error').isHidden()).toBe(true);
    // A finished phrase: its times from the speech events (ms from the first sample), shown as m:ss.d.
    const done = phrases()
      .filter({ hasText: /\b(fellow|americans|ask|country)\b/i })
      .first();
    const start = Number(await done.getAttribute('data-start-ms'));
    const end = Number(await done.getAttribute('data-end-ms'));
    expect(end).toBeGreaterThan(start);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(await done.locator('.segment-head').textContent()).toMatch(/^\d+:\d\d\.\d – \d+:\d\d\.\d$/);
    await saveScreenshot(page, '19-live');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.locator('#live-status').textContent(), { timeout: 120_000 }).toBe('Stopped.');
    expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(1);
    expect(await page.locator('#live-error').isHidden()).toBe(true);
    expect((await heard()).length).toBeGreaterThanOrEqual(2); // the phrases stay listed after Stop

    // The session is recorded for the person in the portal namespace, and Usage lists it.
    await expect
      .poll(
        async () =>
          (
            await test.service.ctx.database.db
              .select({ id: predictions.id })
              .from(predictions)
              .where(and(eq(predictions.namespace, 'portal'), eq(predictions.status, 'succeeded')))
          ).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Usage' }).click();
    const row = page.locator('table.usage tbody tr').first();
    expect((await row.locator('td').allTextContents()).slice(1, 4)).toEqual(['Live session', 'Portal', 'succeeded']);
  });

  it('should work under the portal’s CSP: static scripts, a same-origin socket, no key in the page, no violation', async () => {
    const response = await page.goto(`${origin()}/portal/live`);
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(await response!.text()).not.toMatch(/tsk_/); // the page carries no API key: the socket takes the session cookie
    expect(sockets).toEqual([`${origin().replace('http:', 'ws:')}${LIVE_SOCKET_PATH}?intent=transcription`]);
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('should refuse the socket to a page of another site (403 before the upgrade) and to a request without a session (in band, 4401)', async () => {
    const cookie = (await browser.context.cookies()).find((item) => item.name === SESSION_COOKIE)!;
    const url = `${test.url.replace('http:', 'ws:')}${LIVE_SOCKET_PATH}?intent=transcription`;
    const attempt = (headers: Record<string, string>) =>
      new Promise<{ status?: number; events: { type: string; error?: { code: string; message: string } }[]; close?: number }>(
        (resolve, reject) => {
          const ws = new WebSocket(url, ['realtime'], { headers });
          const events: { type: string }[] = [];
          ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode, events }));
          ws.on('message', (data) => {
            events.push(JSON.parse(data.toString()) as { type: string });
            if (events.length === 1 && events[0]!.type === 'session.created') ws.close(1000);
          });
          ws.on('close', (code) => resolve({ events, close: code }));
          ws.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
        },
      );
    const own = origin();
    // A page of another site, with the person's cookie: refused before the upgrade.
    expect((await attempt({ Origin: 'https://evil.example', Cookie: `${SESSION_COOKIE}=${cookie.value}` })).status).toBe(403);
    expect((await attempt({ Cookie: `${SESSION_COOKIE}=${cookie.value}` })).status).toBe(403); // no Origin at all
    // The portal's own origin with the cookie: a session.
    expect((await attempt({ Origin: own, Cookie: `${SESSION_COOKIE}=${cookie.value}` })).events[0]?.type).toBe('session.created');
    // No cookie: the socket opens only to say why, and closes with 4401.
    const refused = await attempt({ Origin: own });
    expect(refused.close).toBe(4401);
    expect(refused.events.map((event) => event.error?.code)).toEqual(['invalid_api_key']);
    expect(refused.events[0]!.error!.message).toMatch(/sign-in has ended/);
  });

  it('should say how to allow the microphone when the browser refuses it, and open no socket', async () => {
    // A browser without --use-fake-ui-for-media-stream: it refuses the microphone, as when a person clicks Block.
    const refusing = await launchTestBrowser(undefined, ['--use-fake-device-for-media-stream']);
    try {
      await refusing.context.addCookies(await browser.context.cookies()); // the same signed-in person
      const other = await refusing.context.newPage();
      const opened: string[] = [];
      other.on('websocket', (socket) => opened.push(socket.url()));
      await other.goto(`${origin()}/portal/live`);
      await other.getByRole('button', { name: 'Start' }).click();
      const error = other.locator('#live-error');
      await error.waitFor({ state: 'visible' });
      expect(await error.textContent()).toBe(
        'The browser was not allowed to use the microphone. Allow it (the icon in the address bar, or the site settings) and press Start again.',
      );
      expect(await other.locator('#live-status').textContent()).toBe('Stopped.');
      expect(await other.getByRole('button', { name: 'Start' }).count()).toBe(1);
      expect(opened).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('should say that too many live sessions are open when the person’s key has its most (LIVE_MAX_SESSIONS_PER_KEY)', async () => {
    await page.goto(`${origin()}/portal/live`);
    const cookie = (await browser.context.cookies()).find((item) => item.name === SESSION_COOKIE)!;
    const url = `${test.url.replace('http:', 'ws:')}${LIVE_SOCKET_PATH}?intent=transcription`;
    const held = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(url, ['realtime'], { headers: { Origin: origin(), Cookie: `${SESSION_COOKIE}=${cookie.value}` } });
            ws.once('message', () => resolve(ws)); // session.created
            ws.once('error', reject);
          }),
      ),
    );
    try {
      await page.getByRole('button', { name: 'Start' }).click();
      const error = page.locator('#live-error');
      await error.waitFor({ state: 'visible', timeout: 60_000 });
      expect(await error.textContent()).toBe(
        'You already have as many live sessions open as are allowed at once. Close the Live page in another tab or window, then press Start again.',
      );
      expect(await page.locator('#live-status').textContent()).toBe('Stopped.');
    } finally {
      for (const ws of held) ws.close(1000);
    }
  });

  it('should tell on the page that the sign-in has ended when the socket refuses the session', async () => {
    await page.goto(`${origin()}/portal/live`);
    await page.getByRole('button', { name: 'Start' }).waitFor();
    const cookie = (await browser.context.cookies()).find((item) => item.name === SESSION_COOKIE)!;
    await endPortalSession(test.service.ctx.database.db, cookie.value); // signed out in another tab (or expired) while the page was open
    await page.getByRole('button', { name: 'Start' }).click();
    const error = page.locator('#live-error');
    await error.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await error.textContent()).toBe('Your portal sign-in has ended. Sign in again with a new link, then come back to this page.');
    expect(await page.locator('#live-status').textContent()).toBe('Stopped.');
    expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(1);
    await saveScreenshot(page, '20-live-signed-out');
  });

  it('should say that the connection closed when the service ends the session, and stop listening', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'portal:ana');
    await page.goto(`${link.url}&lang=en`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/portal$/);
    await page.goto(`${origin()}/portal/live`);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.locator('#live-status').textContent(), { timeout: 60_000 }).toMatch(/^(Listening\.|Hearing speech…)$/);
    serviceStopped = true;
    const stopping = test.service.stop(); // closes every live session first (1001, "server stopping"), then waits for HTTP connections
    const error = page.locator('#live-error');
    await error.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await error.textContent()).toBe('The connection to the service closed (server stopping). Press Start to begin again.');
    expect(await page.locator('#live-status').textContent()).toBe('Stopped.');
    expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(1);
    await stopping;
  });
});
