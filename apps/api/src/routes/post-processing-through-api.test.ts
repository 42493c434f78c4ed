import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, identifyRequest, replyLikeAModel, startChatServer } from '@transcribe/core/testing';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { scrapeMetrics } from '../test-support/scrape-metric.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** Post-processing through the HTTP API against a local OpenAI-compatible chat server (spec 2.3, 2.4, 3). */
describe('post-processing through the API', () => {
  let t: TestService;
  let files: FileServer;
  let chat: ChatServer;

  const run = async (input: Record<string, unknown>) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const created = (await response.json()) as { id: string };
    return pollPrediction(t.replicateBase, t.key, created.id);
  };

  beforeAll(async () => {
    chat = await startChatServer(replyLikeAModel);
    t = await startTestService('pglite', { LLM_BASE_URL: chat.baseUrl, LLM_MAX_RETRIES: '1' });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await chat?.close();
  });

  const LLM_OK = 'transcribe_llm_calls_total{outcome="ok"}';
  const LLM_FAILED = 'transcribe_llm_calls_total{outcome="failed"}';

  it('should return {transcript, results} with every requested type', async () => {
    const done = await run({
      audio: `${files.url}/jfk.wav`,
      output_format: 'srt',
      post_process: ['summary', 'speaker_names', 'translation'],
      target_language: 'German',
    });
    expect(done.status).toBe('succeeded');
    const output = done.output as { transcript: string; results: Record<string, unknown> };
    expect(output.transcript).toMatch(/^1\n00:00:0/);
    expect(Object.keys(output.results).sort()).toEqual(['speaker_names', 'summary', 'translation']);
    expect(typeof output.results.summary).toBe('string');
    expect((output.results.summary as string).length).toBeGreaterThan(0);
    // speaker_names is a map from speaker label to name, or null (2.3.7).
    const names = output.results.speaker_names;
    expect(
      names === null || (typeof names === 'object' && Object.keys(names as object).every((label) => /^SPEAKER_\d+$/.test(label))),
    ).toBe(true);
    const types = chat.requests.map((r) => identifyRequest(r).type);
    expect(new Set(types)).toEqual(new Set(['summary', 'translation', 'speaker_names']));
    expect(chat.requests.find((r) => identifyRequest(r).type === 'translation')?.system).toMatch(/German/);
    // Every request the chat server answered is one `ok` attempt on /metrics; the stage was timed once.
    expect(await scrapeMetrics(t.url, LLM_OK, LLM_FAILED, 'transcribe_stage_seconds_count{stage="post_processing"}')).toEqual([
      chat.requests.length,
      0,
      1,
    ]);
  });

  it('should fail the whole prediction, naming the type, when one type fails (spec 3)', async () => {
    chat.setScript((request) => (identifyRequest(request).type === 'quiz' ? { status: 500 } : replyLikeAModel(request)));
    const [failedBefore] = await scrapeMetrics(t.url, LLM_FAILED);
    const done = await run({ audio: `${files.url}/jfk.wav`, post_process: ['summary', 'quiz'] });
    chat.setScript(replyLikeAModel);
    expect(done.status).toBe('failed');
    // quiz: its first attempt and its one retry (LLM_MAX_RETRIES=1) are counted as failed calls.
    expect((await scrapeMetrics(t.url, LLM_FAILED))[0]! - failedBefore!).toBe(2);
    expect(String(done.error)).toMatch(/quiz/);
    expect(done.output).toBeNull();
  });

  it('should give empty results and make no language-model call for a recording without speech (2.3.6)', async () => {
    const before = chat.requests.length;
    const done = await run({
      audio: `${files.url}/nonspeech/generated_digital_silence_10s.wav`,
      post_process: ['summary', 'speaker_names'],
    });
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual({ transcript: expect.anything(), results: { summary: '', speaker_names: {} } });
    expect(chat.requests.length).toBe(before);
  });
});

describe('post-processing without a language model', () => {
  it('should refuse post_process with 422 before anything is created', async () => {
    const t = await startTestService('pglite');
    try {
      const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio: 'https://example.com/a.wav', post_process: ['summary'] } }),
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/language model/);
    } finally {
      await t.stop();
    }
  });
});
