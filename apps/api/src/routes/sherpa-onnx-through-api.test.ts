import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readFile } from 'node:fs/promises';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The random-weight models of the real sherpa-onnx layout (scripts/fixtures/make-sherpa-fixture-models.py).
import { FIXTURE_MODELS_DIR } from '@transcribe/core/testing';
import { createLinkPrediction, getPrediction } from '../test-support/fake-engine-service.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** Child processes of this process whose command line mentions `needle`. */
function childrenRunning(needle: string): string[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(needle));
}

/**
 * The sherpa-onnx engine inside a whole prediction, through the HTTP API, on a model file of the
 * real format (random weights: the words are nonsense, so structure and behaviour are checked,
 * never text): download, decode, VAD, the real sherpa-onnx decode loop in its child process,
 * rendering; and a cancel in the middle of the decode.
 */
describe('predictions on the sherpa-onnx engine (fixture Whisper model)', () => {
  let t: TestService;
  let files: FileServer;

  const create = (input: Record<string, unknown>) => createLinkPrediction(t.url, t.key, { input });

  beforeAll(async () => {
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'sherpa-onnx',
      MODELS_DIR: FIXTURE_MODELS_DIR,
      SHERPA_MODEL: 'sherpa-onnx-whisper-tiny',
      MODELS_AUTO_INSTALL: '0',
    });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it("should translate with the engine's own Whisper translate task through POST /v1/audio/translations, with no language model configured", async () => {
    expect(t.service.ctx.engine.translates).toBe(true);
    expect(t.service.ctx.config.llmConfigured).toBe(false);
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const file = await toFile(await readFile(join(AUDIO_DIR, 'jfk.wav')), 'jfk.wav', { type: 'audio/wav' });
    const answer = (await client.audio.translations.create({ file, model: 'whisper-1', response_format: 'verbose_json' })) as unknown as {
      task: string;
      language: string;
      duration: number;
      segments: { start: number; end: number }[];
    };
    expect(answer.task).toBe('translate');
    expect(answer.language).toBe('english');
    expect(answer.duration).toBeCloseTo(11, 0);
    expect(answer.segments.length).toBeGreaterThan(0);
    for (const segment of answer.segments) expect(segment.end).toBeLessThanOrEqual(answer.duration + 0.05);
    // A prediction like any other, marked as a translation: no post-processing ran.
    const [row] = (await t.service.ctx.database.executeSql('SELECT params FROM predictions ORDER BY created_at DESC LIMIT 1')).rows as {
      params: { task?: string; post_process: unknown };
    }[];
    expect(row!.params.task).toBe('translate');
    expect(row!.params.post_process).toBeNull();
  });

  it('should end succeeded with timed segments and words inside the recording', async () => {
    expect(t.service.ctx.engine.name).toBe('sherpa-onnx');
    const id = await create({ audio: `${files.url}/jfk.wav`, output_format: 'json', language: 'en' });
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status, String(done.error)).toBe('succeeded');
    const output = done.output as {
      source: { length: number };
      segments: { start: number; end: number; text: string; words: { start: number; end: number; text: string }[] }[];
      language: string;
    };
    expect(output.source.length).toBeCloseTo(11, 0);
    expect(output.language).toBe('en');
    expect(output.segments.length).toBeGreaterThan(0);
    for (const segment of output.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(0);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      expect(segment.end).toBeLessThanOrEqual(output.source.length + 0.05);
      for (const word of segment.words) {
        expect(word.start).toBeGreaterThanOrEqual(segment.start - 0.05);
        expect(word.end).toBeLessThanOrEqual(segment.end + 0.05);
      }
    }
    expect(String(done.logs)).toMatch(/recognized 100%/);
  });

  it('should stop the decode and end canceled when canceled in the middle of it', async () => {
    const id = await create({ audio: `${files.url}/long_hifitts6097_concat_16k.wav`, language: 'en' });
    // Mid-decode: the engine has reported progress, but not the end.
    for (let i = 0; ; i += 1) {
      const logs = String((await getPrediction(t.url, t.key, id)).logs);
      if (/recognized \d+%/.test(logs) && !logs.includes('recognized 100%')) break;
      if (logs.includes('recognized 100%') || i > 2400) throw new Error(`never caught the decode mid-way:\n${logs}`);
      await sleep(25);
    }
    const cancel = await fetch(`${t.replicateBase}/v1/predictions/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(cancel.status).toBe(200);
    const ended = await pollPrediction(t.replicateBase, t.key, id);
    expect(ended.status).toBe('canceled');
    expect(String(ended.logs)).not.toContain('recognized 100%');
    // The decode's child process is gone within a few seconds of the cancel.
    for (let i = 0; i < 100 && childrenRunning('sherpa-onnx-recognize').length > 0; i += 1) await sleep(100);
    expect(childrenRunning('sherpa-onnx-recognize')).toEqual([]);
  });
});
