import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiAsrEngine, DEFAULT_MAX_CHUNK_SECONDS, DEFAULT_MAX_REQUEST_BYTES, type OpenAiAsrOptions } from './openai-asr-engine.ts';
import { planRemoteChunks } from './plan-remote-chunks.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { readWavSlice } from '../../read-wav-slice.ts';
import type { RecognitionRequest } from '../../recognition-engine.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';
import {
  startTranscriptionServer,
  type TranscriptionReply,
  type TranscriptionServer,
} from '../../test-support/start-transcription-server.ts';

const JFK_SPEECH = [
  { start: 0.29, end: 2.28 },
  { start: 3.26, end: 4.46 },
  { start: 5.37, end: 7.69 },
  { start: 8.16, end: 10.98 },
];
let server: TranscriptionServer;

beforeAll(async () => {
  server = await startTranscriptionServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function recognize(overrides: Partial<OpenAiAsrOptions> = {}, extra: Partial<RecognitionRequest> = {}) {
  const engine = createOpenAiAsrEngine({
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    model: 'whisper-test',
    timeoutMs: 5000,
    maxRetries: 2,
    concurrency: 2,
    retryBaseDelayMs: 10,
    ...overrides,
  });
  return engine.recognize({
    wavPath: audioPath('jfk.wav'),
    durationSeconds: 11,
    speech: JFK_SPEECH,
    language: null,
    prompt: null,
    hotwords: [],
    ...extra,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

/** Answers the listed replies in order of arrival, then the default (a transcription). */
function inOrder(...replies: TranscriptionReply[]) {
  server.setScript((request) => replies[request.index] ?? {});
}

describe('openai-compatible engine failures', () => {
  it('should wait for Retry-After on a 429, back off on a 500, and then succeed', async () => {
    inOrder({ status: 429, headers: { 'retry-after': '1' } }, { status: 500 });
    const segments = await recognize();
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]!.receivedAtMs - server.requests[0]!.answeredAtMs!).toBeGreaterThanOrEqual(950);
    expect(segments.length).toBeGreaterThan(0);
  });

  it('should resend the same WAV bytes, with a Content-Length, on every attempt', async () => {
    inOrder({ status: 500 }, { status: 502 });
    await recognize({ concurrency: 1 });
    const [chunk] = planRemoteChunks(JFK_SPEECH, 11, {
      maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
      maxChunkSeconds: DEFAULT_MAX_CHUNK_SECONDS,
    });
    const expected = await readWavSlice(audioPath('jfk.wav'), await readWavLayout(audioPath('jfk.wav')), chunk!.start, chunk!.end);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.file.bytes.equals(expected)).toBe(true);
      expect(request.headers['transfer-encoding']).toBeUndefined();
      expect(Number(request.headers['content-length'])).toBeGreaterThan(expected.length);
    }
  });

  it('should give up after maxRetries on a 5xx, naming the status and the attempts', async () => {
    server.setScript(() => ({ status: 503 }));
    const error = await failureOf(recognize({ maxRetries: 2 }));
    expect(error).toMatchObject({
      code: 'recognition_failed',
      message: 'The speech recognition server failed with HTTP 503 (3 attempts): scripted error 503',
    });
    expect(server.requests).toHaveLength(3);
  });

  it('should not wait for a Retry-After longer than 30 s', async () => {
    server.setScript(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    const error = await failureOf(recognize());
    expect(error.code).toBe('recognition_failed');
    expect(error.message).toMatch(/kept answering 429 Too Many Requests \(1 attempt\).*it asked to wait 120 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('should report a 400 as the server refusing the audio, without retrying', async () => {
    const rawBody = JSON.stringify({ error: { message: 'Invalid file format.', type: 'invalid_request_error' } });
    server.setScript(() => ({ status: 400, rawBody }));
    const error = await failureOf(recognize());
    expect(error).toMatchObject({
      code: 'recognition_failed',
      message: 'The speech recognition server refused the audio: 400 Invalid file format.',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('should report a wrong API key as refused, with the server words (whisper.cpp sends a plain error string)', async () => {
    server.setScript(() => ({ status: 401, rawBody: JSON.stringify({ error: 'Incorrect API key provided' }) }));
    const error = await failureOf(recognize());
    expect(error).toMatchObject({
      code: 'recognition_failed',
      message: 'The speech recognition server refused the audio: 401 Incorrect API key provided',
    });
  });

  it('should report a server that never answers as unreachable after the retries', async () => {
    server.setScript(() => ({ hang: true }));
    const error = await failureOf(recognize({ timeoutMs: 300, maxRetries: 1, concurrency: 1 }));
    expect(error).toMatchObject({
      code: 'recognition_unreachable',
      message: 'The speech recognition server did not answer within 0.3 s (2 attempts).',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('should report a closed port as unreachable', async () => {
    const closed = await startTranscriptionServer();
    await closed.close();
    const error = await failureOf(recognize({ baseUrl: closed.baseUrl, maxRetries: 1 }));
    expect(error).toMatchObject({
      code: 'recognition_unreachable',
      message: 'The speech recognition server could not be reached (2 attempts).',
    });
  });

  it('should refuse an answer that is not a transcription', async () => {
    server.setScript(() => ({ rawBody: '{"foo": 1}' }));
    expect(await failureOf(recognize())).toMatchObject({
      code: 'recognition_failed',
      message: expect.stringContaining('not a verbose_json transcription'),
    });
    server.setScript(() => ({ rawBody: '{"segments": [' }));
    expect(await failureOf(recognize())).toMatchObject({
      code: 'recognition_failed',
      message: 'The speech recognition server sent an answer that is not valid JSON.',
    });
  });

  it('should cancel the requests in flight when the signal aborts', async () => {
    server.setScript(() => ({ delayMs: 60_000 })); // what a missed cancel would cost
    const controller = new AbortController();
    const started = performance.now();
    const pending = failureOf(recognize({ maxChunkSeconds: 3, concurrency: 2 }, { signal: controller.signal }));
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('cancelled by test'));
    expect((await pending).message).toBe('cancelled by test');
    expect(performance.now() - started).toBeLessThan(20_000); // far below the 60 s answer, whatever the load
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests.map((r) => r.aborted)).toEqual([true, true]); // the other chunks were never sent
  });

  it('should stop the other chunks when one is refused', async () => {
    server.setScript((request) => (request.index === 0 ? { status: 400 } : { delayMs: 60_000 }));
    const started = performance.now();
    const error = await failureOf(recognize({ maxChunkSeconds: 3, concurrency: 3 }));
    expect(error).toMatchObject({ code: 'recognition_failed', message: expect.stringContaining('refused the audio: 400') });
    expect(performance.now() - started).toBeLessThan(20_000); // far below the 60 s answer, whatever the load
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests.length).toBeGreaterThanOrEqual(1); // others may not have left yet when the 400 came back
    expect(server.requests.slice(1).map((r) => r.aborted)).toEqual(server.requests.slice(1).map(() => true));
  });
});
