import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaCache, predictions, voices, type PredictionRow, type Transcript } from '@transcribe/core';
import { writeReaderThenJfk } from '../test-support/join-clips.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { useApiFixture } from '../test-support/use-api-fixture.ts';
import { signedInClient, type PortalClient } from './portal-test-client.ts';

/** Seconds of the LibriVox reader at the start of the conversation (clip 0890). */
const READER_SECONDS = 7.1;

/**
 * The portal's speakers and voices (docs/portal.md, "Speakers and voices") over HTTP, on a real
 * two-speaker conversation (a LibriVox reader, then JFK) transcribed with diarization from a link, so
 * its recording is stored: renaming, "remember this voice" (enrolled with the use-case of POST /v1/voices),
 * the Voices page and its excerpt, Delete, and every refusal: CSRF, another account's voice, a full
 * account, a recording no longer stored or never kept, a sample of two voices or too short.
 */
describe('portal speakers and voices (HTTP)', () => {
  const api = useApiFixture('pglite', { VOICES_PER_ACCOUNT: '2' });
  let work: string;
  let host: FileServer;
  let client: PortalClient;
  let stranger: PortalClient;
  let key: string;
  let row: PredictionRow;

  const db = () => api.t.service.ctx.database.db;
  const speakersPath = (id = row.id) => `/portal/predictions/${id}/speakers`;
  const rename = async (fields: Record<string, string>, id = row.id, as = client) =>
    as.postForm(speakersPath(id), { csrf: await as.csrfFrom('/portal/api'), ...fields });
  const pageOf = async (path: string, as = client) => (await as.request(path)).text();
  const voiceRows = async () => db().select().from(voices);
  const reader = async () => (await db().select().from(voices).where(eq(voices.name, 'Reader')))[0];
  /** A copy of the conversation's prediction with another transcript or source (same stored recording). */
  const copyOf = async (id: string, change: Partial<PredictionRow>) => {
    await db()
      .insert(predictions)
      .values({ ...row, id, ...change });
    return id;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'portal-voices-'));
    await writeReaderThenJfk(join(work, 'talk.wav'));
    host = await serveFiles(work);
    client = await signedInClient(api.t.service.ctx, api.t.url, 'telegram:601');
    stranger = await signedInClient(api.t.service.ctx, api.t.url, 'telegram:602');
    const page = await (await client.postForm('/portal/api/key', { csrf: await client.csrfFrom('/portal/api') })).text();
    key = /value="(tsk_[A-Za-z0-9_-]{43})"/.exec(page)![1]!;
    const done = await api.run({ audio: `${host.url}/talk.wav`, speakers: 2, output_format: 'json2' }, key);
    expect(done.status).toBe('succeeded');
    [row] = (await db()
      .select()
      .from(predictions)
      .where(eq(predictions.id, String(done.id)))) as [PredictionRow];
    expect(row.transcript!.speakers.map((speaker) => speaker.label)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
  }, 180_000);

  afterAll(async () => {
    await host?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('should list the speakers with a rename form and "Remember this voice" while the recording is stored', async () => {
    const page = await pageOf(`/portal/predictions/${row.id}`);
    expect(page).toContain(`action="/portal/predictions/${row.id}/speakers"`);
    expect(page).toContain('name="label" value="SPEAKER_1"');
    expect(page).toContain('name="label" value="SPEAKER_2"');
    expect(page).toContain('<input type="checkbox" name="remember" value="1"> Remember this voice');
    expect(page.match(/name="csrf"/g)!.length).toBeGreaterThanOrEqual(3); // sign-out and both rename forms
  });

  it('should refuse a rename without the session’s CSRF token, and change nothing', async () => {
    for (const csrf of [undefined, 'forged']) {
      const fields: Record<string, string> = { label: 'SPEAKER_2', name: 'Forged', ...(csrf ? { csrf } : {}) };
      const answer = await client.postForm(speakersPath(), fields);
      expect(answer.status).toBe(403);
    }
    const [stored] = await db().select().from(predictions).where(eq(predictions.id, row.id));
    expect(stored!.speakerNames).toBeNull();
  });

  it('should rename a speaker on the page and in the portal’s downloads, not in the API’s output', async () => {
    const answer = await rename({ label: 'SPEAKER_2', name: ' John ' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/portal/predictions/${row.id}?renamed=SPEAKER_2#speakers`);
    const page = await pageOf(answer.headers.get('location')!);
    expect(page).toContain('Speaker renamed.');
    expect(page).toMatch(/<span class="speaker">John<\/span> <span class="hint">\(SPEAKER_2\)<\/span>/);
    expect(page).not.toMatch(/<span class="speaker">SPEAKER_2<\/span>/);
    const text = await (await client.request(`/portal/predictions/${row.id}/download/text`)).text();
    expect(text).toMatch(/John: /);
    expect(text).not.toMatch(/SPEAKER_2/);
    const srt = await (await client.request(`/portal/predictions/${row.id}/download/srt`)).text();
    expect(srt).toMatch(/John/);
    const json2 = JSON.parse(await (await client.request(`/portal/predictions/${row.id}/download/json2`)).text()) as {
      speakers: { label: string }[];
    };
    expect(json2.speakers.map((speaker) => speaker.label)).toEqual(['SPEAKER_1', 'John']);
    const fromApi = (await (
      await fetch(`${api.t.replicateBase}/v1/predictions/${row.id}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { output: { speakers: { label: string }[] } };
    expect(fromApi.output.speakers.map((speaker) => speaker.label)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
  });

  it('should refuse names the outputs use, another speaker’s name, an unknown speaker and another account’s transcript', async () => {
    expect((await rename({ label: 'SPEAKER_1', name: 'SPEAKER_3' })).status).toBe(422);
    const clash = await rename({ label: 'SPEAKER_1', name: 'John' });
    expect(clash.status).toBe(422);
    expect(await clash.text()).toContain('Another speaker of this transcript already has that name');
    expect((await rename({ label: 'SPEAKER_9', name: 'Nobody' })).status).toBe(404);
    expect((await rename({ label: 'SPEAKER_1', name: 'Intruder' }, row.id, stranger)).status).toBe(404);
    const [stored] = await db().select().from(predictions).where(eq(predictions.id, row.id));
    expect(stored!.speakerNames).toEqual({ SPEAKER_2: 'John' });
  });

  it('should remember a speaker’s voice from the stored recording, keeping only a reference and the voiceprint', async () => {
    const answer = await rename({ label: 'SPEAKER_1', name: 'Reader', remember: '1' });
    expect(answer.status).toBe(303);
    const page = await pageOf(answer.headers.get('location')!);
    expect(page).toContain('Speaker renamed and voice remembered as Reader.');
    const [voice] = await voiceRows();
    expect(voice).toMatchObject({ account: 'telegram:601', name: 'Reader', samples: 1, sourcePredictionId: row.id });
    const spans = voice!.sourceSpans!;
    expect(spans.length).toBeGreaterThan(0);
    const spanSeconds = spans.reduce((sum, span) => sum + span.end - span.start, 0);
    const turns = row.transcript!.segments.filter((segment) => segment.speaker === 'SPEAKER_1');
    expect(spans.every((span) => turns.some((turn) => span.start >= turn.start - 0.001 && span.end <= turn.end + 0.001))).toBe(true);
    expect(spans.some((span) => span.start < READER_SECONDS)).toBe(true); // the reader opens the conversation
    expect(voice!.speechSeconds).toBeGreaterThanOrEqual(1.5);
    expect(voice!.speechSeconds).toBeLessThanOrEqual(spanSeconds + 0.1);
    expect(Object.keys(voice!.embeddings)).toContain('builtin');
    // The same account as the API's: the key of this person lists it.
    const listed = (await (await fetch(`${api.t.url}/v1/voices`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      results: { name: string }[];
    };
    expect(listed.results.map((v) => v.name)).toEqual(['Reader']);
  }, 120_000);

  it('should list the voice on the Voices page with an excerpt cut on demand, and on the account page', async () => {
    const voice = await reader();
    const page = await pageOf('/portal/voices');
    expect(page).toContain('Reader');
    expect(page).toContain(`<audio controls preload="none" src="/portal/voices/${voice!.id}/excerpt"`);
    const excerpt = await client.request(`/portal/voices/${voice!.id}/excerpt`);
    expect(excerpt.status).toBe(200);
    expect(excerpt.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await excerpt.arrayBuffer());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    const seconds = (wav.length - 44) / 32000; // 16 kHz mono 16-bit
    const spanSeconds = voice!.sourceSpans!.reduce((sum, span) => sum + span.end - span.start, 0);
    expect(Math.abs(seconds - spanSeconds)).toBeLessThan(0.2);
    const account = await pageOf('/portal/api');
    expect(account).toContain('Your voices');
    expect(account).toContain('Reader');
    expect(account).toContain(`action="/portal/voices/${voice!.id}/delete"`);
    expect(account).not.toContain('<audio');
  }, 60_000);

  it('should answer another account’s voice with 404 on the excerpt and Delete, and keep it', async () => {
    const voice = await reader();
    expect((await stranger.request(`/portal/voices/${voice!.id}/excerpt`)).status).toBe(404);
    const deleted = await stranger.postForm(`/portal/voices/${voice!.id}/delete`, { csrf: await stranger.csrfFrom('/portal/api') });
    expect(deleted.status).toBe(404);
    expect(await pageOf('/portal/voices', stranger)).not.toContain('Reader');
    expect(await voiceRows()).toHaveLength(1);
  });

  it('should refuse a voice name the account already has, and leave the speaker unrenamed', async () => {
    const copy = await copyOf('p_portal_voices_taken', { speakerNames: null });
    const answer = await rename({ label: 'SPEAKER_1', name: 'Reader', remember: '1' }, copy);
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('You already have a voice named Reader');
    const [stored] = await db().select().from(predictions).where(eq(predictions.id, copy));
    expect(stored!.speakerNames).toBeNull();
  });

  it('should refuse a speaker whose part holds two voices, and one who says too little', async () => {
    const [first, ...rest] = row.transcript!.segments;
    const both: Transcript = {
      ...row.transcript!,
      segments: [{ ...first!, start: 1, end: 18, speaker: 'SPEAKER_1' }, ...rest.map((segment) => ({ ...segment, speaker: 'SPEAKER_2' }))],
    };
    const mixed = await copyOf('p_portal_voices_mixed', { transcript: both, speakerNames: null });
    const twoVoices = await rename({ label: 'SPEAKER_1', name: 'Mixed', remember: '1' }, mixed);
    expect(twoVoices.status).toBe(422);
    expect(await twoVoices.text()).toMatch(/holds \d+ voices/);
    const brief: Transcript = {
      ...row.transcript!,
      segments: [{ ...first!, start: 2, end: 3, speaker: 'SPEAKER_1' }, ...rest.map((segment) => ({ ...segment, speaker: 'SPEAKER_2' }))],
    };
    const short = await copyOf('p_portal_voices_short', { transcript: brief, speakerNames: null });
    const tooShort = await rename({ label: 'SPEAKER_1', name: 'Brief', remember: '1' }, short);
    expect(tooShort.status).toBe(422);
    expect(await tooShort.text()).toContain('This speaker says too little to measure the voice');
    expect((await voiceRows()).map((voice) => voice.name)).toEqual(['Reader']);
  }, 120_000);

  it('should refuse the voice over the account’s limit, in the reader’s language', async () => {
    const copy = await copyOf('p_portal_voices_full', { speakerNames: null });
    await db()
      .insert(voices)
      .values({ id: 'voice_portal_filler', account: 'telegram:601', name: 'Filler', embeddings: {}, speechSeconds: 3, samples: 1 });
    const fields = { csrf: await client.csrfFrom('/portal/api'), label: 'SPEAKER_2', name: 'Kennedy', remember: '1' };
    const answer = await client.postForm(speakersPath(copy), fields);
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('You already have 2 voices, the most allowed. Delete one on the Voices page first.');
    const russian = await client.postForm(speakersPath(copy), fields, { 'accept-language': 'ru' });
    expect(russian.status).toBe(409);
    expect(await russian.text()).toContain('У вас уже 2 голоса — это предел.');
    const [stored] = await db().select().from(predictions).where(eq(predictions.id, copy));
    expect(stored!.speakerNames).toBeNull();
    await db().delete(voices).where(eq(voices.id, 'voice_portal_filler'));
  });

  it('should say when the recording is not kept (an upload) and refuse to remember from it', async () => {
    const upload = await copyOf('p_portal_voices_upload', {
      source: { kind: 'upload', path: join(work, 'gone.wav'), bytes: 1 },
      speakerNames: null,
    });
    const page = await pageOf(`/portal/predictions/${upload}`);
    expect(page).toContain('The recording of this transcript is not kept');
    expect(page).not.toContain('name="remember"');
    const answer = await rename({ label: 'SPEAKER_2', name: 'Kennedy', remember: '1' }, upload);
    expect(answer.status).toBe(422);
    expect(await answer.text()).toContain('The recording of this transcript is not kept');
    expect((await rename({ label: 'SPEAKER_2', name: 'Kennedy' }, upload)).status).toBe(303); // renaming alone still works
  });

  it('should say when the source recording is gone: no remembering, and no excerpt on the Voices page', async () => {
    await db()
      .update(mediaCache)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    const page = await pageOf(`/portal/predictions/${row.id}`);
    expect(page).toContain('The recording of this transcript is no longer stored');
    expect(page).not.toContain('name="remember"');
    const answer = await rename({ label: 'SPEAKER_2', name: 'Kennedy', remember: '1' });
    expect(answer.status).toBe(422);
    expect(await answer.text()).toContain('The recording of this transcript is no longer stored');
    const voice = await reader();
    const voicesPage = await pageOf('/portal/voices');
    expect(voicesPage).toContain('The recording it was taken from is no longer stored.');
    expect(voicesPage).not.toContain('<audio');
    const excerpt = await client.request(`/portal/voices/${voice!.id}/excerpt`);
    expect(excerpt.status).toBe(404);
    expect(await excerpt.text()).toContain('The recording it was taken from is no longer stored.');
  });

  it('should say "no excerpt kept" for a voice enrolled from samples', async () => {
    await db()
      .insert(voices)
      .values({ id: 'voice_portal_sampled', account: 'telegram:601', name: 'Sampled', embeddings: {}, speechSeconds: 3, samples: 1 });
    expect(await pageOf('/portal/voices')).toContain('No excerpt kept (only the voiceprint is stored).');
    expect((await client.request('/portal/voices/voice_portal_sampled/excerpt')).status).toBe(404);
  });

  it('should delete a voice at once with the CSRF token, and refuse without it', async () => {
    const voice = await reader();
    expect((await client.postForm(`/portal/voices/${voice!.id}/delete`, {})).status).toBe(403);
    expect(await voiceRows()).toHaveLength(2);
    const answer = await client.postForm(`/portal/voices/${voice!.id}/delete`, { csrf: await client.csrfFrom('/portal/voices') });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/portal/voices?deleted=1');
    expect(await pageOf('/portal/voices?deleted=1')).toContain('The voice was deleted; nothing of it is kept.');
    const fromAccount = await client.postForm('/portal/voices/voice_portal_sampled/delete', {
      csrf: await client.csrfFrom('/portal/api'),
      back: 'api',
    });
    expect(fromAccount.headers.get('location')).toBe('/portal/api?voice_deleted=1');
    expect(await voiceRows()).toHaveLength(0);
    expect(await pageOf('/portal/voices')).toContain('You have no voices yet.');
  });
});
