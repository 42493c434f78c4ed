import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, createPortalLoginLink, startPortalSession } from '@transcribe/core';
import { eq } from 'drizzle-orm';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { followLoginLink, PortalClient, signedInClient } from './portal-test-client.ts';

describe('portal sessions and CSRF (HTTP)', () => {
  let test: TestService;

  beforeAll(async () => {
    test = await startTestService('postgres', { WORKER_CONCURRENCY: '0' });
  });

  afterAll(async () => {
    await test?.stop();
  });

  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, test.url);

  it('should sign in with a one-time link into an HttpOnly, SameSite cookie limited to /portal', async () => {
    const client = new PortalClient(test.url);
    const link = await createPortalLoginLink(test.service.ctx, 'portal:ana');
    expect(link.url).toMatch(/^http:\/\/localhost:\d+\/portal\/login\?token=[A-Za-z0-9_-]{43}$/);
    const opened = await client.request(local(link.url));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    const answer = await followLoginLink(client, local(link.url));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/portal');
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('portal_session='));
    expect(cookie).toMatch(/; Path=\/portal; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Secure/);
    const home = await (await client.request('/portal')).text();
    expect(home).toContain('Signed in as <strong>ana</strong>');
  });

  it('should refuse a used link, saying how to get a new one, and never show the page signed in', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'telegram:77');
    expect((await followLoginLink(new PortalClient(test.url), local(link.url))).status).toBe(303);
    const second = new PortalClient(test.url);
    const answer = await followLoginLink(second, local(link.url));
    expect(answer.status).toBe(401);
    const page = await answer.text();
    expect(page).toContain('already used');
    expect(page).toContain('/portal to the bot');
    expect(second.cookies.has('portal_session')).toBe(false);
  });

  it('should not sign in from a form the browser did not open (login CSRF), and keep the link usable', async () => {
    const link = await createPortalLoginLink(test.service.ctx, 'portal:victim');
    const token = new URL(link.url).searchParams.get('token')!;
    const forged = await new PortalClient(test.url).postForm('/portal/login', { token, login_csrf: 'x'.repeat(32) });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('Open your sign-in link again');
    expect((await followLoginLink(new PortalClient(test.url), local(link.url))).status).toBe(303);
  });

  it('should mark the cookie Secure when the service is served over https', async () => {
    const config = test.service.ctx.config;
    const before = config.apiBaseUrl;
    config.apiBaseUrl = 'https://transcribe.example.com/v1/replicate/v1'; // what PUBLIC_BASE_URL=https://… gives
    try {
      const link = await createPortalLoginLink(test.service.ctx, 'portal:tls');
      expect(link.url.startsWith('https://transcribe.example.com/portal/login?token=')).toBe(true);
      const answer = await followLoginLink(new PortalClient(test.url), local(link.url));
      expect(answer.headers.getSetCookie().find((line) => line.startsWith('portal_session='))).toMatch(/; Secure$/);
    } finally {
      config.apiBaseUrl = before;
    }
  });

  it('should answer signed-out requests with 401: a sign-in page, or a problem object for scripts', async () => {
    const anonymous = new PortalClient(test.url);
    const page = await anonymous.request('/portal/api');
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('npm run portal -- login-link');
    const live = await anonymous.request('/portal/live'); // the Live page too (its socket refuses in band: live-browser.test.ts)
    expect(live.status).toBe(401);
    expect(await live.text()).toContain('npm run portal -- login-link');
    const json = await anonymous.request('/portal/predictions/abc/progress.json');
    expect(json.status).toBe(401);
    expect(json.headers.get('content-type')).toContain('application/problem+json');
    const key = await anonymous.postForm('/portal/api/key', { csrf: 'x' });
    expect(key.status).toBe(401);
  });

  it('should treat a malformed session cookie as no session (401), never as a server error', async () => {
    for (const value of ['%', '%ZZ', '%E0%A4%A', 'a%']) {
      for (const path of ['/portal', '/portal/api', '/portal/usage', '/portal/live', '/portal/predictions/abc/progress.json']) {
        const answer = await fetch(`${test.url}${path}`, { headers: { cookie: `portal_session=${value}` }, redirect: 'manual' });
        expect(answer.status, `${path} with portal_session=${value}`).toBeLessThan(500);
        expect([200, 302, 303, 401]).toContain(answer.status);
      }
    }
  });

  it('should refuse every form without the session’s CSRF token and do nothing', async () => {
    const client = await signedInClient(test.service.ctx, test.url, 'portal:csrf');
    const keysBefore = await test.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.owner, 'portal:csrf'));
    const forms: Record<string, string>[] = [{}, { csrf: 'wrong' }];
    for (const fields of forms) {
      const answer = await client.postForm('/portal/api/key', fields);
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('expired or was sent from another site');
    }
    expect(await test.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.owner, 'portal:csrf'))).toEqual(keysBefore);
    expect((await client.postForm('/portal/logout', { csrf: 'wrong' })).status).toBe(403);
    expect((await client.request('/portal/api')).status).toBe(200);
  });

  it('should check the upload’s CSRF header before reading the body, and its form field after, leaving no file behind', async () => {
    const client = await signedInClient(test.service.ctx, test.url, 'portal:upload-csrf');
    const form = () => {
      const body = new FormData();
      body.append('input.audio', new Blob([new Uint8Array(4096)]), 'a.wav');
      return body;
    };
    const byHeader = await client.request('/portal/transcribe', {
      method: 'POST',
      body: form(),
      headers: { 'x-csrf-token': 'wrong', accept: 'application/json' },
    });
    expect(byHeader.status).toBe(403);
    const byField = await client.request('/portal/transcribe', { method: 'POST', body: form() });
    expect(byField.status).toBe(403);
    const uploads = await readdir(join(test.dataDir, 'uploads')).catch(() => []);
    expect(uploads).toEqual([]);
  });

  it('should sign out: the cookie is cleared and the old cookie no longer works', async () => {
    const client = await signedInClient(test.service.ctx, test.url, 'portal:bye');
    const stolen = client.cookies.get('portal_session')!;
    const answer = await client.postForm('/portal/logout', { csrf: await client.csrfFrom('/portal') });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/portal?signed_out=1');
    expect(client.cookies.has('portal_session')).toBe(false);
    expect(await (await client.request('/portal?signed_out=1')).text()).toContain('You are signed out');
    const replay = new PortalClient(test.url);
    replay.cookies.set('portal_session', stolen);
    expect((await replay.request('/portal/usage')).status).toBe(401);
  });

  it('should not accept an expired session', async () => {
    const old = await startPortalSession(test.service.ctx.database.db, 'portal:old', {
      ttlSeconds: 60,
      now: new Date(Date.now() - 120_000),
    });
    const client = new PortalClient(test.url);
    client.cookies.set('portal_session', old.secret);
    expect((await client.request('/portal/api')).status).toBe(401);
  });
});
