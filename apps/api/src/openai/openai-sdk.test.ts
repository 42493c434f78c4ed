import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError, toFile, UnprocessableEntityError } from 'openai';
import Parser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebVTTParser } from 'webvtt-parser';
import { normalizeForWer, predictions, usageLedger, wordErrorRate } from '@transcribe/core';
import { type ChatServer, replyLikeAModel, startChatServer } from '@transcribe/core/testing';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import type { VerboseTranscription } from './render-audio-response.ts';

/** PocketSphinx on jfk.wav measures 0.227 (prediction-routes.test.ts); the bound of the issue. */
const MAX_WER = 0.3;
const JFK = join(AUDIO_DIR, 'jfk.wav');
/** A 3.3 s sentence, for cases where the words recognised do not matter (a third of jfk.wav's recognition work). */
const SHORT_CLIP = join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0001.wav');

/** The OpenAI-compatible API through the real `openai` SDK, PocketSphinx recognising, a local chat server translating. */
describe('the OpenAI-compatible API through the openai SDK', () => {
  let t: TestService;
  let chat: ChatServer;
  let client: OpenAI;
  let reference: string;

  beforeAll(async () => {
    chat = await startChatServer(replyLikeAModel);
    t = await startTestService('pglite', { LLM_BASE_URL: chat.baseUrl, LLM_MAX_RETRIES: '1' });
    client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0 });
    reference = await readFile(join(AUDIO_DIR, 'jfk.txt'), 'utf8');
  });

  afterAll(async () => {
    await t?.stop();
    await chat?.close();
  });

  const wer = (text: string) => wordErrorRate(normalizeForWer(reference), normalizeForWer(text)).wer;

  it('should transcribe jfk.wav into {text} near the reference, as a prediction in the api namespace with its ledger row', async () => {
    const answer = await client.audio.transcriptions.create({ file: createReadStream(JFK), model: 'whisper-1' });
    expect(Object.keys(answer)).toEqual(['text']);
    expect(wer(answer.text)).toBeLessThan(MAX_WER);
    const db = t.service.ctx.database.db;
    const rows = await db.select().from(predictions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ namespace: 'api', status: 'succeeded' });
    const ledger = await db.select().from(usageLedger).where(eq(usageLedger.predictionId, rows[0]!.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]!.reason).toBe('recognition'); // an upload has no link: never a cached transcript
    expect(ledger[0]!.audioSeconds).toBeCloseTo(11, 0);
    const account = await fetch(`${t.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(((await account.json()) as { usage: { predictions: number } }).usage.predictions).toBeGreaterThanOrEqual(1);
  });

  it('should answer verbose_json with segments and words inside the duration and the language as OpenAI names it', async () => {
    const answer = (await client.audio.transcriptions.create({
      file: createReadStream(JFK),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['segment', 'word'],
      temperature: 0,
    })) as unknown as VerboseTranscription;
    expect(answer).toMatchObject({ task: 'transcribe', language: 'english' });
    expect(answer.duration).toBeCloseTo(11, 0);
    expect(wer(answer.text)).toBeLessThan(MAX_WER);
    expect(answer.segments!.length).toBeGreaterThan(0);
    expect(answer.words!.length).toBeGreaterThan(10);
    for (const [i, segment] of answer.segments!.entries()) {
      expect(segment).toMatchObject({ id: i, tokens: [], temperature: 0 });
      // real measures: PocketSphinx's word posteriors and Silero VAD over the span, in range
      expect(segment.avg_logprob).toBeLessThanOrEqual(0);
      expect(segment.no_speech_prob).toBeGreaterThanOrEqual(0);
      expect(segment.no_speech_prob).toBeLessThan(0.6); // speech
      expect(Array.isArray(segment.flags)).toBe(true);
      // OpenAI's members in OpenAI's order, then the `speaker` extension
      expect(Object.keys(segment).slice(0, 10)).toEqual([
        'id',
        'seek',
        'start',
        'end',
        'text',
        'tokens',
        'temperature',
        'avg_logprob',
        'compression_ratio',
        'no_speech_prob',
      ]);
      expect(segment.start).toBeGreaterThanOrEqual(0);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      expect(segment.end).toBeLessThanOrEqual(answer.duration);
    }
    const probabilities = new Set(answer.words!.map((word) => word.probability));
    expect(probabilities.size).toBeGreaterThan(3); // word posteriors differ word to word
    for (const word of answer.words!) {
      expect(word.probability).toBeGreaterThanOrEqual(0);
      expect(word.probability).toBeLessThanOrEqual(1);
      expect(word.start).toBeGreaterThanOrEqual(0);
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(answer.duration);
    }
  });

  it('should answer text, srt and vtt as text/plain; the VTT is valid WebVTT', async () => {
    const text = await client.audio.transcriptions.create({ file: createReadStream(JFK), model: 'pocketsphinx', response_format: 'text' });
    expect(typeof text).toBe('string');
    expect(text.endsWith('\n')).toBe(true);
    expect(wer(text)).toBeLessThan(MAX_WER);

    const srt = await client.audio.transcriptions.create({ file: createReadStream(JFK), model: 'whisper-1', response_format: 'srt' });
    const srtCues = new Parser().fromSrt(srt);
    expect(srtCues.length).toBeGreaterThan(0);
    expect(wer(srtCues.map((cue) => cue.text).join(' '))).toBeLessThan(MAX_WER);
    for (const cue of srtCues) expect(cue.endSeconds).toBeLessThanOrEqual(11.1);

    const raw = await client.audio.transcriptions
      .create({ file: createReadStream(JFK), model: 'whisper-1', response_format: 'vtt' })
      .asResponse();
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const vtt = await raw.text();
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    const parsed = new WebVTTParser().parse(vtt, 'metadata');
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.length).toBe(srtCues.length);
    expect(wer(parsed.cues.map((cue) => cue.text).join(' '))).toBeLessThan(MAX_WER);
    for (const cue of parsed.cues) {
      expect(cue.startTime).toBeGreaterThanOrEqual(0);
      expect(cue.endTime).toBeGreaterThan(cue.startTime);
      expect(cue.endTime).toBeLessThanOrEqual(11.1);
    }
  });

  it('should read other containers ffmpeg reads (FLAC)', async () => {
    const clip = 'librispeech-test-clean/1089-134686-0000';
    const answer = await client.audio.transcriptions.create({
      file: createReadStream(join(AUDIO_DIR, `${clip}.flac`)),
      model: 'whisper-1',
    });
    const expected = await readFile(join(AUDIO_DIR, `${clip}.txt`), 'utf8');
    expect(wordErrorRate(normalizeForWer(expected), normalizeForWer(answer.text)).wer).toBeLessThan(0.45); // 0.357 on the WAV
  });

  it('should translate to English with the configured language model: text from translation, timed cues from translated_subtitles', async () => {
    const json = await client.audio.translations.create({ file: createReadStream(SHORT_CLIP), model: 'whisper-1' });
    expect(json.text).toMatch(/RESULT translation/);
    const verbose = (await client.audio.translations.create({
      file: createReadStream(SHORT_CLIP),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as unknown as VerboseTranscription;
    expect(verbose).toMatchObject({ task: 'translate', language: 'english' });
    expect(verbose.segments!.length).toBeGreaterThan(0);
    for (const segment of verbose.segments!) expect(segment.end).toBeLessThanOrEqual(verbose.duration);
    const vtt = await client.audio.translations.create({ file: createReadStream(SHORT_CLIP), model: 'whisper-1', response_format: 'vtt' });
    const parsed = new WebVTTParser().parse(vtt as unknown as string, 'metadata');
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.length).toBeGreaterThan(0);
    const sent = chat.requests.map((request) => request.system).join('\n');
    expect(sent).toMatch(/English/);
  });

  it('should surface a wrong key as AuthenticationError, bad fields as BadRequestError naming the field, a file that is no recording as UnprocessableEntityError', async () => {
    const stranger = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: 'sk-not-a-key', maxRetries: 0 });
    const unauthenticated = await stranger.audio.transcriptions
      .create({ file: createReadStream(JFK), model: 'whisper-1' })
      .catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect((unauthenticated as AuthenticationError).code).toBe('invalid_api_key');

    const cases: [Record<string, unknown>, string][] = [
      [{ 'service.speakers': 0 }, 'service.speakers'],
      [{ 'service.hotwords': 'x'.repeat(5000) }, 'service.hotwords'],
      [{ language: 'klingon' }, 'language'],
      [{ response_format: 'docx' }, 'response_format'],
      [{ temperature: 3 }, 'temperature'],
      [{ timestamp_granularities: ['word'] }, 'timestamp_granularities[]'],
    ];
    for (const [fields, param] of cases) {
      const error = await client.audio.transcriptions
        .create({ file: createReadStream(JFK), model: 'whisper-1', ...fields } as never)
        .catch((e: unknown) => e);
      expect(error, param).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param).toBe(param);
      expect((error as BadRequestError).type).toBe('invalid_request_error');
    }
    const notAudio = await client.audio.transcriptions
      .create({ file: await toFile(Buffer.from('not a recording'), 'notes.wav'), model: 'whisper-1' })
      .catch((e: unknown) => e);
    expect(notAudio).toBeInstanceOf(UnprocessableEntityError);
    expect((notAudio as UnprocessableEntityError).code).toBe('media_unreadable');
    const noModel = await fetch(`${t.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: formOf({}),
    });
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toEqual({
      error: { message: expect.stringMatching(/model is required/), type: 'invalid_request_error', param: 'model', code: 'invalid_input' },
    });
  });

  it('should accept service.speakers and service.hotwords (spec 2.2 rules) and label the segments', async () => {
    const answer = (await client.audio.transcriptions.create({
      file: createReadStream(JFK),
      model: 'whisper-1',
      response_format: 'verbose_json',
      'service.speakers': 1,
      'service.hotwords': 'Americans, country',
    } as never)) as unknown as VerboseTranscription;
    expect(wer(answer.text)).toBeLessThan(MAX_WER);
    expect(new Set(answer.segments!.map((segment) => segment.speaker))).toEqual(new Set(['SPEAKER_1']));
    const latest = (await t.service.ctx.database.db.select().from(predictions)).find(
      (row) => (row.params as { speakers: number | null }).speakers === 1,
    );
    expect(latest?.params).toMatchObject({ speakers: 1, hotwords: ['Americans', 'country'] });
  });

  it("should list the configured engine and whisper-1 in OpenAI's list shape, and 404 other model ids", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(['pocketsphinx', 'whisper-1'].sort());
    expect((await client.models.retrieve('whisper-1')).object).toBe('model');
    const unknown = await client.models.retrieve('gpt-9').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect((unknown as NotFoundError).code).toBe('model_not_found');
  });

  it('should refuse a model name the service has nothing for as OpenAI does (404 model_not_found), creating no prediction', async () => {
    const db = t.service.ctx.database.db;
    const before = (await db.select().from(predictions)).length;
    for (const call of [
      () => client.audio.transcriptions.create({ file: createReadStream(JFK), model: 'whisper-large-v3-typo' }),
      () => client.audio.translations.create({ file: createReadStream(JFK), model: 'whisper-large-v3-typo' }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model', type: 'invalid_request_error' });
      expect((error as NotFoundError).message).toMatch(/whisper-large-v3-typo.*GET \/v1\/models.*whisper-1/);
    }
    expect((await db.select().from(predictions)).length).toBe(before);
  });

  it('should cancel the prediction when the client disconnects before the answer', async () => {
    const db = t.service.ctx.database.db;
    const before = new Set((await db.select().from(predictions)).map((row) => row.id));
    const abort = new AbortController();
    const request = fetch(`${t.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: formOf({ model: 'whisper-1' }, await readFile(join(AUDIO_DIR, 'long_hifitts6097_concat_16k.wav'))),
      signal: abort.signal,
    }).catch(() => null);
    let id: string | undefined;
    for (let i = 0; i < 600 && id === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      id = (await db.select().from(predictions)).find((row) => !before.has(row.id))?.id;
    }
    expect(id).toBeDefined();
    abort.abort();
    await request;
    let status = '';
    for (let i = 0; i < 100 && status !== 'canceled'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await db.select().from(predictions).where(eq(predictions.id, id!)))[0]!.status;
    }
    expect(status).toBe('canceled');
  });
});

/** A multipart body with `fields` and (unless absent) a `file` part holding `audio` (jfk.wav by default read by the caller). */
function formOf(fields: Record<string, string>, audio?: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([audio ?? Buffer.from('RIFF')]), 'audio.wav');
  return form;
}
