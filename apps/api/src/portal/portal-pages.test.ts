import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, chargePrediction, predictions, saveBotUserLocale, type Transcript } from '@transcribe/core';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { signedInClient, type PortalClient } from './portal-test-client.ts';

const TRANSCRIPT: Transcript = {
  source: { length: 11.05, format: 'wav' },
  segments: [
    { start: 0.3, end: 4.2, text: 'And so my fellow Americans', speaker: 'SPEAKER_1', language: 'en', words: [], flags: [] },
    {
      start: 4.6,
      end: 10.9,
      text: 'ask what you can do for your country',
      speaker: 'SPEAKER_2',
      language: 'en',
      words: [],
      flags: ['low_logprob', 'outside_speech'],
    },
  ],
  vad: [{ start: 0.3, end: 10.9 }],
  language: 'en',
  languages: [{ code: 'en', name: 'English', probability: null, duration: null }],
  speakers: [
    { label: 'SPEAKER_1', duration: 3.9 },
    { label: 'SPEAKER_2', duration: 6.3 },
  ],
};

describe('portal pages (HTTP)', () => {
  let test: TestService;
  let client: PortalClient;

  beforeAll(async () => {
    test = await startTestService('pglite', { WORKER_CONCURRENCY: '0' });
    client = await signedInClient(test.service.ctx, test.url, 'telegram:501');
  });

  afterAll(async () => {
    await test?.stop();
  });

  const apiStatus = async (key: string) =>
    (await fetch(`${test.url}/v1/replicate/v1/account`, { headers: { authorization: `Bearer ${key}` } })).status;
  const getKey = async (fields: Record<string, string> = {}) => {
    const page = await (await client.postForm('/portal/api/key', { csrf: await client.csrfFrom('/portal/api'), ...fields })).text();
    return { page, key: /value="(tsk_[A-Za-z0-9_-]{43})"/.exec(page)?.[1] ?? '' };
  };
  const transcribe = (form: FormData, json = true) =>
    client.csrfFrom('/portal/transcribe').then((csrf) => {
      form.append('csrf', csrf);
      return client.request('/portal/transcribe', { method: 'POST', body: form, headers: json ? { accept: 'application/json' } : {} });
    });

  it('should issue a key shown once with ready-to-paste examples, and list only its prefix afterwards', async () => {
    expect(await (await client.request('/portal/api')).text()).toContain('You have no API key yet');
    const { page, key } = await getKey();
    expect(key).not.toBe('');
    expect(page).toContain(`export TRANSCRIBE_API_KEY=&#34;${key}&#34;`);
    expect(page).toContain(`base_url=&#34;http://localhost:${new URL(test.url).port}/v1/replicate&#34;`);
    expect(page).toContain('data-copy="new-key"');
    expect(await apiStatus(key)).toBe(200);
    const listed = await (await client.request('/portal/api')).text();
    expect(listed).toContain(`${key.slice(0, 10)}…`);
    expect(listed).not.toContain(key);
    const [row] = await test.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.owner, 'telegram:501'));
    expect(row?.label).toBe('portal');
  });

  it('should reissue: the old key keeps working for 5 minutes when asked, or stops right away', async () => {
    const first = (await getKey()).key;
    const later = await getKey({ old_key: 'later' });
    expect(later.page).toContain('Your previous key stops working at');
    expect(await apiStatus(first)).toBe(200);
    expect(await (await client.request('/portal/api')).text()).toContain('Stops working at');
    const now = await getKey({ old_key: 'now' });
    expect(now.page).toContain('Your previous key no longer works');
    expect(await apiStatus(first)).toBe(401);
    expect(await apiStatus(later.key)).toBe(401);
    expect(await apiStatus(now.key)).toBe(200);
    const odd = await client.postForm('/portal/api/key', { csrf: await client.csrfFrom('/portal/api'), old_key: 'never' });
    expect(odd.status).toBe(422);
    expect(await odd.text()).toContain('right away or in 5 minutes');
  });

  it('should refuse a form without a recording, or with both a file and a link, in words', async () => {
    const none = await transcribe(new FormData());
    expect(none.status).toBe(422);
    expect(((await none.json()) as { detail: string }).detail).toBe('Choose a recording file or paste a link to one.');
    const both = new FormData();
    both.append('input.audio', new Blob([new Uint8Array(10)]), 'a.wav');
    both.append('link', 'https://example.com/a.wav');
    expect(((await (await transcribe(both)).json()) as { detail: string }).detail).toBe('Choose a file or paste a link, not both.');
    const page = await transcribe(new FormData(), false);
    expect(page.status).toBe(422);
    const html = await page.text();
    expect(html).toContain('Choose a recording file or paste a link to one.');
    expect(html).toContain('id="transcribe-form"');
  });

  it('should pass the API’s validation through, naming the rule and the field', async () => {
    const form = new FormData();
    form.append('link', 'https://example.com/a.wav');
    form.append('input.speakers', '0');
    const answer = await transcribe(form);
    expect(answer.status).toBe(422);
    const problem = (await answer.json()) as { detail: string; field: string; field_id: string };
    expect(problem.detail).toMatch(/speakers must be a whole number of at least 1/);
    expect(problem).toMatchObject({ field: 'speakers', field_id: 'speakers' });
  });

  it('should point a language error at its field and at the portal’s list of languages, not the API’s (401 in a browser)', async () => {
    const form = () => {
      const fields = new FormData();
      fields.append('link', 'https://example.com/a.wav');
      fields.append('input.language', 'de'); // PocketSphinx recognises English only
      return fields;
    };
    const answer = await transcribe(form());
    expect(answer.status).toBe(422);
    const problem = (await answer.json()) as { detail: string; field: string; help: { href: string; text: string } };
    expect(problem.field).toBe('language');
    expect(problem.detail).not.toMatch(/See the list of languages|\/v1\/replicate/);
    expect(problem.help).toMatchObject({ href: '/portal/languages', text: 'list of languages' });
    // Without JavaScript: the form again, the reason at the top (linked to the field) and under the field.
    const page = await (await transcribe(form(), false)).text();
    expect(page).toContain('<a href="#language">Please check the marked field:</a>');
    expect(page).toMatch(
      /<select id="language" name="input.language" aria-invalid="true" data-described="language-hint" aria-describedby="language-error language-hint">/,
    );
    expect(page).toMatch(/<p class="field-error" id="language-error">[^<]+<\/p>/);
    expect(page).toContain('See the <a href="/portal/languages">list of languages</a>.');
    // That page opens without a key or session, in the browser's language.
    const list = await fetch(`${test.url}/portal/languages`, { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' } });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain('<html lang="ru">');
    expect(text).toMatch(/<td>Немецкий<\/td><td><code>de<\/code><\/td><td>нет<\/td>/);
    expect(text).toMatch(/<td>Английский<\/td><td><code>en<\/code><\/td><td>да<\/td>/);
  });

  it('should answer a Russian-speaking person in Russian, at the field, with the service’s detail only where there is no field', async () => {
    await saveBotUserLocale(test.service.ctx.database.db, '502', 'ru');
    const russian = await signedInClient(test.service.ctx, test.url, 'telegram:502');
    const csrf = await russian.csrfFrom('/portal/transcribe');
    const form = new FormData();
    form.append('csrf', csrf);
    form.append('link', 'https://example.com/a.wav');
    form.append('input.speakers', '0');
    const answer = await russian.request('/portal/transcribe', { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ detail: 'Число говорящих — целое число от 1 до 32.', field: 'speakers' });
    const missing = await russian.request('/portal/predictions/aaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(missing.status).toBe(404);
    const page = await missing.text();
    expect(page).toContain('<h1>Не найдено</h1>');
    expect(page).toContain('Подробности от сервиса (на английском):');
  });

  it('should create a portal-namespace prediction from a link and follow it from the queue', async () => {
    const form = new FormData();
    form.append('input.audio', new Blob([]), ''); // the empty file field of a browser form
    form.append('link', 'https://example.com/talk.mp3');
    form.append('input.output_format', 'srt');
    form.append('input.language', '');
    const answer = await transcribe(form, false);
    expect(answer.status).toBe(303);
    const id = /^\/portal\/predictions\/([a-z2-7]{26})$/.exec(answer.headers.get('location') ?? '')?.[1];
    expect(id).toBeDefined();
    const [row] = await test.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, id!));
    expect(row?.namespace).toBe('portal');
    expect(row?.params).toMatchObject({ audio: 'https://example.com/talk.mp3', output_format: 'srt', language: null });
    const progress = await (await client.request(`/portal/predictions/${id}/progress.json`)).json();
    expect(progress).toEqual({ status: 'processing', stage: 'Waiting in the queue…', percent: 2, done: false });
    const page = await (await client.request(`/portal/predictions/${id}`)).text();
    expect(page).toContain('data-progress-url="/portal/predictions/');
    expect(page).toContain('<meta http-equiv="refresh" content="3">');
    expect((await client.request(`/portal/predictions/${id}/download/text`)).status).toBe(404);
  });

  it('should show a finished transcript with speakers and times, downloads of every format, and the usage row', async () => {
    const form = new FormData();
    form.append('input.audio', new Blob([new Uint8Array(2048)]), '<img src=x>jfk.wav');
    const created = (await (await transcribe(form)).json()) as { id: string; url: string };
    expect(created.url).toBe(`/portal/predictions/${created.id}`);
    const { db } = test.service.ctx.database;
    await db
      .update(predictions)
      .set({ status: 'succeeded', transcript: TRANSCRIPT, audioSeconds: 11.05, completedAt: new Date() })
      .where(eq(predictions.id, created.id));
    const [row] = await db.select().from(predictions).where(eq(predictions.id, created.id));
    await chargePrediction(db, {
      predictionId: created.id,
      apiKeyId: row!.apiKeyId,
      mediaId: null,
      audioSeconds: 11.05,
      usedCachedTranscript: false,
      pricePerMinute: 0,
      windowDays: 27,
    });
    const page = await (await client.request(created.url)).text();
    expect(page).toContain('00:04.6</time>–<time datetime="PT10.9S">00:10.9</time> <span class="speaker">SPEAKER_2</span>');
    expect(page).toContain('ask what you can do for your country');
    // the flagged segment is shaded and says why; the other is not
    expect(page).toContain('<li class="segment doubtful">');
    expect(page.match(/<li class="segment">/g)).toHaveLength(1);
    expect(page).toContain('<span class="doubt" title="low_logprob, outside_speech">doubtful</span>');
    expect(page).toContain('Shaded passages are doubtful');
    const downloads: [string, string, RegExp][] = [
      ['text', 'text/plain', /SPEAKER_1.*And so my fellow Americans/s],
      ['srt', 'application/x-subrip', /00:00:04,600 --> 00:00:10,900/],
      ['lrc', 'text/plain', /\[00:00\.30\]/],
      ['json', 'application/json', /"segments"/],
      ['json2', 'application/json', /"speakers"/],
    ];
    for (const [format, type, magic] of [
      ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'PK'],
      ['pdf', 'application/pdf', '%PDF-'],
    ]) {
      const answer = await client.request(`${created.url}/download/${format}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(answer.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?transcript-${created.id}\\.${format}`));
      expect(
        Buffer.from(await answer.arrayBuffer())
          .subarray(0, magic!.length)
          .toString('latin1'),
      ).toBe(magic);
    }
    for (const [format, type, content] of downloads) {
      const answer = await client.request(`${created.url}/download/${format}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain(type);
      expect(answer.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?transcript-${created.id}\\.`));
      expect(await answer.text()).toMatch(content);
    }
    const usage = await (await client.request('/portal/usage')).text();
    expect(usage).toContain('&#60;img src=x&#62;jfk.wav');
    expect(usage).not.toContain('<img src=x>');
    expect(usage).toMatch(/status-succeeded">succeeded<\/span><\/td>\s*<td>0:11<\/td>\s*<td>0:11 charged<\/td>/);
    expect(usage).toContain('<svg viewBox="0 0 640 220" role="img"');
  });

  it('should cancel a waiting transcription with its Cancel button, only with the session’s CSRF token', async () => {
    const form = new FormData();
    form.append('input.audio', new Blob([new Uint8Array(2048)]), 'to-cancel.wav');
    const created = (await (await transcribe(form)).json()) as { id: string; url: string };
    const page = await (await client.request(created.url)).text();
    expect(page).toContain(`<form method="post" action="/portal/predictions/${created.id}/cancel"`);
    const csrf = await client.csrfFrom(created.url);
    const forged = await client.postForm(`${created.url}/cancel`, { csrf: 'wrong' });
    expect(forged.status).toBe(403);
    const { db } = test.service.ctx.database;
    expect((await db.select().from(predictions).where(eq(predictions.id, created.id)))[0]?.status).toBe('processing');
    const canceled = await client.postForm(`${created.url}/cancel`, { csrf });
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get('location')).toBe(created.url);
    expect((await db.select().from(predictions).where(eq(predictions.id, created.id)))[0]?.status).toBe('canceled');
    const after = await (await client.request(created.url)).text();
    expect(after).toContain('<h1>Canceled</h1>');
    expect(after).not.toContain('/cancel"');
    const other = await signedInClient(test.service.ctx, test.url, 'portal:not-the-owner');
    expect((await other.postForm(`${created.url}/cancel`, { csrf: await other.csrfFrom('/portal/api') })).status).toBe(404);
  });

  it('should head a failed transcription “Failed” with its error, not “Transcribing”', async () => {
    const form = new FormData();
    form.append('input.audio', new Blob([new Uint8Array(2048)]), 'broken.wav');
    const created = (await (await transcribe(form)).json()) as { id: string; url: string };
    await test.service.ctx.database.db
      .update(predictions)
      .set({
        status: 'failed',
        error: 'The file is not audio or video the service can read.',
        errorCode: 'unsupported_media_type',
        completedAt: new Date(),
      })
      .where(eq(predictions.id, created.id));
    const page = await (await client.request(created.url)).text();
    expect(page).toContain('<h1>Failed</h1>');
    expect(page).toContain('<strong>Failed:</strong> The file is not audio or video the service can read.');
    expect(page).not.toContain('Transcribing');
    expect(page).not.toContain('/cancel"');
  });

  it('should not show another person’s transcription', async () => {
    const other = await signedInClient(test.service.ctx, test.url, 'portal:someone-else');
    const [mine] = await test.service.ctx.database.db.select().from(predictions).limit(1);
    const answer = await other.request(`/portal/predictions/${mine!.id}`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain('You have no transcription with the id');
    expect((await other.request(`/portal/predictions/${mine!.id}/download/json`)).status).toBe(404);
  });
});
