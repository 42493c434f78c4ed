import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageLedger } from '@transcribe/core';
import {
  type ChatServer,
  replyLikeAModel,
  startChatServer,
  startTranscriptionServer,
  type TranscriptionReply,
  type TranscriptionServer,
} from '@transcribe/core/testing';
import { countLogLines, createLinkPrediction, isSettled, waitForPrediction } from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const LEAK = /\/work\/|node_modules|\.ts:\d+|\bat [\w.<>]+ \(|Error:/;

function answer(durationSeconds: number): TranscriptionReply {
  return {
    body: {
      task: 'transcribe',
      language: 'english',
      duration: durationSeconds,
      text: 'a remote answer',
      segments: [{ id: 0, start: 0, end: durationSeconds, text: ' a remote answer', avg_logprob: -0.2 }],
    },
  };
}

/** Replies from `failures` in turn, then the normal answer. */
function failingFirst(failures: TranscriptionReply[]) {
  let left = [...failures];
  return {
    reset: () => void (left = [...failures]),
    script: (request: { durationSeconds: number }) => left.shift() ?? answer(request.durationSeconds),
  };
}

describe('the LLM and ASR endpoints failing: nothing lost, never charged twice or for a failure', () => {
  let asr: TranscriptionServer;
  let chat: ChatServer;
  let t: TestService;
  let files: FileServer;
  let n = 0;

  beforeAll(async () => {
    asr = await startTranscriptionServer({ script: (request) => answer(request.durationSeconds) });
    chat = await startChatServer(replyLikeAModel);
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: asr.baseUrl,
      ASR_MODEL: 'whisper-1',
      ASR_TIMEOUT_MS: '1500',
      ASR_MAX_RETRIES: '2',
      LLM_BASE_URL: chat.baseUrl,
      LLM_TIMEOUT_MS: '1500',
      LLM_MAX_RETRIES: '2',
      PRICE_PER_MINUTE: '1',
    });
    files = await serveFiles(`${AUDIO_DIR}/librispeech-test-clean`);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await asr?.close();
    await chat?.close();
  });

  async function run(input: Record<string, unknown> = {}) {
    n += 1;
    const id = await createLinkPrediction(t.url, t.key, { input: { audio: `${files.url}/1089-134686-0001.wav?fault=${n}`, ...input } });
    const done = await waitForPrediction(t.url, t.key, id, isSettled, 90_000);
    const charges = await t.service.ctx.database.db.select().from(usageLedger).where(eq(usageLedger.predictionId, id));
    const endings =
      countLogLines(done.logs, 'succeeded') +
      String(done.logs)
        .split('\n')
        .filter((line) => / failed: /.test(line)).length;
    return { done, charges: charges.length, endings };
  }

  it.each([
    ['a 500 once', [{ status: 500 }]],
    ['a 429 with Retry-After once', [{ status: 429, headers: { 'retry-after': '1' } }]],
    ['a dropped answer once (timeout)', [{ hang: true }]],
  ])('should recover from %s of the ASR server and charge once', async (_name, failures) => {
    const flaky = failingFirst(failures as TranscriptionReply[]);
    asr.setScript(flaky.script);
    const { done, charges, endings } = await run();
    expect(done.status, String(done.error)).toBe('succeeded');
    expect(charges).toBe(1);
    expect(endings).toBe(1);
  });

  it.each([
    ['always 503', { status: 503 }],
    ['never answering', { hang: true }],
  ])('should fail with plain words and charge nothing when the ASR server is %s', async (_name, reply) => {
    asr.setScript(() => reply as TranscriptionReply);
    const { done, charges, endings } = await run();
    asr.setScript((request) => answer(request.durationSeconds));
    expect(done.status).toBe('failed');
    expect(String(done.error)).not.toMatch(LEAK);
    expect(String(done.error).length).toBeGreaterThan(10);
    expect(charges).toBe(0);
    expect(endings).toBe(1);
  });

  it('should recover from a failing language-model call and charge once', async () => {
    let failed = 0;
    chat.setScript((request) => (failed++ === 0 ? { status: 500 } : replyLikeAModel(request)));
    const { done, charges } = await run({ post_process: ['summary'] });
    chat.setScript(replyLikeAModel);
    expect(done.status, String(done.error)).toBe('succeeded');
    expect(charges).toBe(1);
  });

  it.each([
    ['always 500', { status: 500 }],
    ['never answering', { hang: true }],
  ])('should fail the whole prediction and charge nothing when the language model is %s', async (_name, reply) => {
    chat.setScript(() => reply);
    const { done, charges, endings } = await run({ post_process: ['summary'] });
    chat.setScript(replyLikeAModel);
    expect(done.status).toBe('failed');
    expect(String(done.error)).toMatch(/summary/);
    expect(String(done.error)).not.toMatch(LEAK);
    expect(done.output).toBeNull();
    expect(charges).toBe(0);
    expect(endings).toBe(1);
  });
});
