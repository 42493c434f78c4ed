import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import OpenAI, { APIError, BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeForWer, predictions, usageLedger, wordErrorRate } from '@transcribe/core';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0001.wav'); // 3.3 s, one sentence
const LONGER = join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0000.wav'); // 10.4 s
const JFK = join(AUDIO_DIR, 'jfk.wav');

/**
 * `stream=true` on POST /v1/audio/transcriptions through the real `openai` SDK's `stream: true`,
 * PocketSphinx recognising, on PostgreSQL (the worker's text also comes back through NOTIFY: each
 * delta must still come once).
 */
describe('stream=true on /v1/audio/transcriptions', () => {
  let t: TestService;
  let client: OpenAI;
  let dir: string;
  let twoTurns: string;
  let sentence: string;
  let both: string;

  beforeAll(async () => {
    t = await startTestService('postgres');
    client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0 });
    dir = await mkdtemp(join(tmpdir(), 'openai-stream-'));
    // Two sentences, 2 s of silence between: two utterances, decoded by two processes at once; the
    // short one is done while the long one is still being decoded.
    twoTurns = join(dir, 'two-turns.wav');
    await promisify(execFile)('ffmpeg', [
      ...['-v', 'error', '-i', CLIP, '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono:d=2', '-i', LONGER],
      ...['-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', twoTurns],
    ]);
    const text = (name: string) => readFile(join(AUDIO_DIR, 'librispeech-test-clean', `${name}.txt`), 'utf8');
    sentence = (await text('1089-134686-0001')).trim();
    both = `${sentence} ${(await text('1089-134686-0000')).trim()}`;
  });

  afterAll(async () => {
    await t?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('should send a delta per utterance while the rest is still being recognised, then done with the text and usage', async () => {
    const stream = await client.audio.transcriptions.create({ file: createReadStream(twoTurns), model: 'whisper-1', stream: true });
    const deltas: string[] = [];
    const statusAtFirstDelta: string[] = [];
    let done: { text: string; usage?: { type: string; seconds?: number } } | null = null as typeof done;
    for await (const event of stream) {
      if (event.type === 'transcript.text.delta') {
        if (deltas.length === 0) {
          const rows = await t.service.ctx.database.db.select().from(predictions);
          statusAtFirstDelta.push(...rows.map((row) => row.status));
        }
        deltas.push(event.delta);
      } else if (event.type === 'transcript.text.done') {
        done = event as unknown as NonNullable<typeof done>;
      }
    }
    expect(deltas).toHaveLength(2); // one per utterance, none twice (also heard through NOTIFY)
    expect(statusAtFirstDelta).toEqual(['processing']); // the first came before the recording was done
    expect(wordErrorRate(normalizeForWer(sentence), normalizeForWer(deltas[0]!)).wer).toBeLessThan(0.5);
    expect(wordErrorRate(normalizeForWer(both), normalizeForWer(deltas.join(''))).wer).toBeLessThan(0.5);
    expect(deltas[1]!.startsWith(' ')).toBe(true);
    expect(done).not.toBeNull();
    expect(normalizeForWer(done!.text)).toBe(normalizeForWer(deltas.join(''))); // no hints: the deltas are the text
    expect(done!.usage?.type).toBe('duration');
    expect(done!.usage?.seconds).toBeCloseTo(3.275 + 2 + 10.435, 0);
    const [row] = await t.service.ctx.database.db.select().from(predictions);
    expect(row).toMatchObject({ namespace: 'api', status: 'succeeded' });
    const ledger = await t.service.ctx.database.db.select().from(usageLedger).where(eq(usageLedger.predictionId, row!.id));
    expect(ledger).toHaveLength(1);
  });

  it('should frame the answer as text/event-stream ending with data: [DONE]', async () => {
    const form = new FormData();
    form.set('file', new Blob([await readFile(CLIP)]), 'clip.wav');
    form.set('model', 'whisper-1');
    form.set('stream', 'true');
    const response = await fetch(`${t.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toBe('data: [DONE]');
    const events = frames.slice(0, -1).map((frame) => JSON.parse(frame.replace(/^data: /, '')) as { type: string; delta?: string });
    expect(events.map((event) => event.type)).toEqual(['transcript.text.delta', 'transcript.text.done']);
    expect(wordErrorRate(normalizeForWer(sentence), normalizeForWer(events[0]!.delta!)).wer).toBeLessThan(0.5);
  });

  it('should end with an error frame, which the SDK throws, when the prediction is canceled after the first delta', async () => {
    const stream = await client.audio.transcriptions.create({ file: createReadStream(twoTurns), model: 'whisper-1', stream: true });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (seen.length === 1) {
          const [running] = await t.service.ctx.database.db.select().from(predictions).where(eq(predictions.status, 'processing'));
          const cancel = await fetch(`${t.replicateBase}/v1/predictions/${running!.id}/cancel`, {
            method: 'POST',
            headers: { authorization: `Bearer ${t.key}` },
          });
          expect(cancel.status).toBe(200);
        }
      }
      return null;
    })().catch((error: unknown) => error);
    expect(seen[0]).toBe('transcript.text.delta');
    expect(seen).not.toContain('transcript.text.done');
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).message).toMatch(/canceled/);
  });

  it('should refuse stream=true before anything is sent where it is not supported, naming the field', async () => {
    const srt = await client.audio.transcriptions
      .create({ file: createReadStream(JFK), model: 'whisper-1', stream: true, response_format: 'srt' } as never)
      .then(async (stream: unknown) => {
        for await (const _ of stream as AsyncIterable<unknown>) void _;
      })
      .catch((error: unknown) => error);
    expect(srt).toBeInstanceOf(BadRequestError);
    expect((srt as BadRequestError).param).toBe('stream');
    expect((srt as BadRequestError).message).toMatch(/json or text/);
    const translation = await client.audio.translations
      .create({ file: createReadStream(JFK), model: 'whisper-1', stream: true } as never)
      .catch((error: unknown) => error);
    expect(translation).toBeInstanceOf(BadRequestError);
    expect((translation as BadRequestError).param).toBe('stream');
  });
});
