import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, voices } from '@transcribe/core';
import { joinClips } from '../test-support/join-clips.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const run = promisify(execFile);

interface VoiceObject {
  id: string;
  name: string;
  speech_seconds: number;
  samples: number;
  embeddings: string[];
  speech_seconds_used?: number;
}

/** Real clips of the shared audio: one reader each, and a join of two readers made with ffmpeg. */
describe('the voice registry (docs/speakers.md)', () => {
  let t: TestService;
  let work: string;
  let jfk: Buffer;
  let twoVoices: Buffer;
  let tooShort: Buffer;
  const auth = (key = t.key) => ({ authorization: `Bearer ${key}` });
  const dataUri = (bytes: Buffer) => `data:audio/wav;base64,${bytes.toString('base64')}`;
  const post = (path: string, body: unknown, key = t.key) =>
    fetch(`${t.url}/v1${path}`, {
      method: 'POST',
      headers: { ...auth(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0', VOICES_PER_ACCOUNT: '2' });
    work = await mkdtemp(join(tmpdir(), 'voices-'));
    jfk = await readFile(join(AUDIO_DIR, 'jfk.wav'));
    const joined = join(work, 'two.wav');
    await joinClips(joined, ['jfk.wav', 'librispeech-test-clean/1089-134686-0000.wav']);
    twoVoices = await readFile(joined);
    const short = join(work, 'short.wav');
    await run('ffmpeg', ['-v', 'error', '-i', join(AUDIO_DIR, 'jfk.wav'), '-t', '1.5', short]);
    tooShort = await readFile(short);
  });

  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  let jfkVoice: VoiceObject;

  it('should enroll a voice from a data: URI and answer its id and the seconds of speech used, storing no audio', async () => {
    const response = await post('/voices', { name: 'John Kennedy', samples: [dataUri(jfk)] });
    expect(response.status).toBe(201);
    jfkVoice = (await response.json()) as VoiceObject;
    expect(jfkVoice).toMatchObject({ id: expect.stringMatching(/^voice_/), name: 'John Kennedy', samples: 1, embeddings: ['builtin'] });
    expect(jfkVoice.speech_seconds_used).toBeGreaterThan(6);
    expect(jfkVoice.speech_seconds_used).toBeLessThan(11);
    const [row] = await t.service.ctx.database.db.select().from(voices);
    expect(row!.embeddings.builtin!.sum).toHaveLength(38);
    expect(await readdir(join(t.dataDir, 'work')).catch(() => [])).toEqual([]); // the sample's audio is gone
  });

  it('should enroll from a multipart upload and add samples to a voice', async () => {
    const form = new FormData();
    form.append('name', 'Reader');
    form.append('sample', new Blob([await readFile(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'))]), 'reader.wav');
    const created = await fetch(`${t.url}/v1/voices`, { method: 'POST', headers: auth(), body: form });
    expect(created.status).toBe(201);
    const voice = (await created.json()) as VoiceObject;
    const added = await post(`/voices/${voice.id}/samples`, {
      samples: [dataUri(await readFile(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0000.wav')))],
    });
    expect(added.status).toBe(200);
    const after = (await added.json()) as VoiceObject;
    expect(after.samples).toBe(2);
    expect(after.speech_seconds).toBeCloseTo(voice.speech_seconds + after.speech_seconds_used!, 3);
    expect(after.speech_seconds_used).toBeGreaterThan(5);
  });

  it("should list, show and delete the account's voices", async () => {
    const list = (await (await fetch(`${t.url}/v1/voices`, { headers: auth() })).json()) as { results: VoiceObject[] };
    expect(list.results.map((v) => v.name)).toEqual(['John Kennedy', 'Reader']);
    const one = await fetch(`${t.url}/v1/voices/${jfkVoice.id}`, { headers: auth() });
    expect(((await one.json()) as VoiceObject).name).toBe('John Kennedy');
    const reader = list.results[1]!;
    expect((await fetch(`${t.url}/v1/voices/${reader.id}`, { method: 'DELETE', headers: auth() })).status).toBe(204);
    expect((await fetch(`${t.url}/v1/voices/${reader.id}`, { headers: auth() })).status).toBe(404);
  });

  it("should keep one account's voices invisible to another key (404, empty list)", async () => {
    const other = await createApiKey(t.service.ctx.database.db, 'other');
    const shown = await fetch(`${t.url}/v1/voices/${jfkVoice.id}`, { headers: auth(other.secret) });
    expect(shown.status).toBe(404);
    expect(((await shown.json()) as { detail: string }).detail).toMatch(/No voice with id/);
    expect((await fetch(`${t.url}/v1/voices/${jfkVoice.id}`, { method: 'DELETE', headers: auth(other.secret) })).status).toBe(404);
    expect((await post(`/voices/${jfkVoice.id}/samples`, { samples: [dataUri(jfk)] }, other.secret)).status).toBe(404);
    const list = (await (await fetch(`${t.url}/v1/voices`, { headers: auth(other.secret) })).json()) as { results: VoiceObject[] };
    expect(list.results).toEqual([]);
    expect((await fetch(`${t.url}/v1/voices`)).status).toBe(401);
  });

  it.each([
    ['no speech', () => readFile(join(AUDIO_DIR, 'nonspeech/pisets_no_speech.wav')), /holds no speech/],
    ['two voices', () => Promise.resolve(twoVoices), /holds 2 voices: a sample must hold one speaker only/],
    ['too short', () => Promise.resolve(tooShort), /too short: 1\.5 s/],
  ])('should refuse a sample with %s (422, in words)', async (_what, sample, message) => {
    const response = await post('/voices', { name: 'Refused', samples: [dataUri(await sample())] });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(message);
  });

  it('should refuse a bad body in the one validation place (422 naming the member)', async () => {
    const cases: [unknown, RegExp][] = [
      [{ samples: [dataUri(jfk)] }, /name must be a string/],
      [{ name: 'SPEAKER_2', samples: [dataUri(jfk)] }, /how unnamed speakers are labelled/],
      [{ name: 'Ann' }, /at least one sample/],
      [{ name: 'Ann', samples: ['ftp://x'] }, /http\(s\) link or a data: URI/],
    ];
    for (const [body, message] of cases) {
      const response = await post('/voices', body);
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(message);
    }
  });

  it('should refuse a second voice of the same name and more voices than VOICES_PER_ACCOUNT (409)', async () => {
    const same = await post('/voices', { name: 'John Kennedy', samples: [dataUri(jfk)] });
    expect(same.status).toBe(409);
    expect(((await same.json()) as { detail: string }).detail).toMatch(/already exists/);
    expect((await post('/voices', { name: 'Second', samples: [dataUri(jfk)] })).status).toBe(201);
    const full = await post('/voices', { name: 'Third', samples: [dataUri(jfk)] });
    expect(full.status).toBe(409);
    expect(((await full.json()) as { detail: string }).detail).toMatch(/already holds 2 voices, the most allowed/);
  });
});
