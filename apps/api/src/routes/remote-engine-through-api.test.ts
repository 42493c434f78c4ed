import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fingerprintTranscription,
  type RecordedTranscriptionRequest,
  startTranscriptionServer,
  type TranscriptionServer,
} from '@transcribe/core/testing';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { scrapeMetrics } from '../test-support/scrape-metric.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The service configured with RECOGNITION_ENGINE=openai-compatible, against a local server speaking that protocol. */
describe('the remote engine through the API', () => {
  let asr: TranscriptionServer;
  let t: TestService;
  let files: FileServer;

  beforeAll(async () => {
    asr = await startTranscriptionServer({
      script: (request) => ({
        body: {
          task: 'transcribe',
          language: 'english',
          duration: request.durationSeconds,
          text: 'ask not what your country can do for you',
          segments: [
            { id: 0, start: 0.1, end: request.durationSeconds - 0.1, text: ' ask not what your country can do for you', avg_logprob: -0.2 },
          ],
        },
      }),
    });
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: asr.baseUrl,
      ASR_MODEL: 'whisper-1',
      ASR_API_KEY: 'sk-test',
    });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await asr?.close();
  });

  it('should send the speech to the server with the prompt and hotwords and stitch its answer into the transcript', async () => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        input: { audio: `${files.url}/jfk.wav`, prompt: 'Inaugural address.', hotwords: 'Kennedy, citizens', language: 'German' },
      }),
    });
    expect(response.status).toBe(201);
    const done = await pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
    expect(done.status).toBe('succeeded');
    const output = done.output as { segments: { text: string; start: number }[]; language: string };
    expect(output.segments.map((s) => s.text).join(' ')).toContain('what your country can do');
    expect(asr.requests.length).toBeGreaterThan(0);
    const fields = asr.requests[0]!.fields;
    expect(fields.model).toEqual(['whisper-1']);
    expect(fields.response_format).toEqual(['verbose_json']);
    expect(fields.language).toEqual(['de']);
    expect(fields.prompt?.[0]).toMatch(/Inaugural address\.[\s\S]*Kennedy, citizens/);
    expect(asr.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    // Each chunk request the server answered is one `ok` attempt on /metrics.
    const calls = await scrapeMetrics(
      t.url,
      'transcribe_remote_asr_calls_total{outcome="ok"}',
      'transcribe_remote_asr_calls_total{outcome="failed"}',
    );
    expect(calls).toEqual([asr.requests.length, 0]);
  });

  it('should count a refused chunk request as a failed remote-ASR call', async () => {
    asr.reset();
    asr.setScript(() => ({ status: 400 })); // a 4xx other than 408/429 is not retried
    try {
      const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio: `${files.url}/jfk.wav` } }),
      });
      const done = await pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
      expect(done.status).toBe('failed');
      const [failed] = await scrapeMetrics(t.url, 'transcribe_remote_asr_calls_total{outcome="failed"}');
      // At least the refused request; chunks still in flight when the first refusal stopped the run are not counted.
      expect(failed).toBeGreaterThanOrEqual(1);
      expect(failed).toBeLessThanOrEqual(asr.requests.length);
    } finally {
      asr.setScript((request) => ({ body: fingerprintTranscription(request) }));
    }
  });

  describe('with multilingual (spec 2.2)', () => {
    /** English 0–10.56 s, 2 s of silence, German 12.56–30.5 s, 2 s of silence, English 32.5–41.26 s. */
    const GERMAN = { from: 11.5, to: 31.5 };
    let scratch: string;
    let mixed: FileServer;

    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'multilingual-api-'));
      const clips = ['fleurs/fleurs-en-000.wav', 'fleurs/fleurs-de-000.wav', 'fleurs/fleurs-en-001.wav'];
      const pads = clips.map((_, i) => `[${i}:a]apad=pad_dur=${i < clips.length - 1 ? 2 : 0}[a${i}]`).join(';');
      await promisify(execFile)('ffmpeg', [
        '-v',
        'error',
        ...clips.flatMap((clip) => ['-i', join(AUDIO_DIR, clip)]),
        '-filter_complex',
        `${pads};[a0][a1][a2]concat=n=3:v=0:a=1[out]`,
        '-map',
        '[out]',
        '-ar',
        '16000',
        '-ac',
        '1',
        '-c:a',
        'pcm_s16le',
        join(scratch, 'en-de-en.wav'),
      ]);
      mixed = await serveFiles(scratch);
    });

    afterAll(async () => {
      await mixed?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    /** The scripted server hears German in the chunks that start inside the German clip, judged by the file name `chunk-<start>.wav`. */
    const chunkStart = (request: RecordedTranscriptionRequest) => Number(/^chunk-([\d.]+)\.wav$/.exec(request.file.fileName)?.[1]);
    const isGerman = (start: number) => start >= GERMAN.from && start < GERMAN.to;

    it('should detect the language per utterance and list both languages with their durations in json2', async () => {
      asr.reset();
      asr.setScript((request) => ({
        body: { ...(fingerprintTranscription(request) as object), language: isGerman(chunkStart(request)) ? 'german' : 'english' },
      }));
      const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio: `${mixed.url}/en-de-en.wav`, multilingual: true, output_format: 'json2' } }),
      });
      expect(response.status).toBe(201);
      const done = await pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
      expect(done.status).toBe('succeeded');
      expect(asr.requests.length).toBeGreaterThanOrEqual(3); // at least one utterance per clip
      expect(asr.requests.every((request) => request.durationSeconds <= 30 && request.fields.language === undefined)).toBe(true);
      const output = done.output as {
        segments: { start: number; end: number; language: string }[];
        languages: { code: string; probability: null; duration: number }[];
      };
      for (const segment of output.segments)
        expect(segment.language, `segment at ${segment.start} s`).toBe(isGerman(segment.start) ? 'de' : 'en');
      const germanSeconds = asr.requests.filter((r) => isGerman(chunkStart(r))).reduce((sum, r) => sum + r.durationSeconds, 0);
      const englishSeconds = asr.requests.filter((r) => !isGerman(chunkStart(r))).reduce((sum, r) => sum + r.durationSeconds, 0);
      expect(output.languages.map((language) => language.code).sort()).toEqual(['de', 'en']);
      const byCode = Object.fromEntries(output.languages.map((language) => [language.code, language]));
      expect(byCode.de).toMatchObject({ name: 'German', probability: null });
      // Each language's duration is the speech of its segments, within the audio sent as that language.
      for (const [code, sent] of [
        ['de', germanSeconds],
        ['en', englishSeconds],
      ] as const) {
        const spoken = output.segments
          .filter((segment) => segment.language === code)
          .reduce((sum, segment) => sum + segment.end - segment.start, 0);
        expect(byCode[code]!.duration).toBeCloseTo(spoken, 2);
        expect(byCode[code]!.duration).toBeGreaterThan(5); // VAD finds ≈ 9.6 s of German speech, ≈ 14 s of English
        expect(byCode[code]!.duration).toBeLessThanOrEqual(sent + 0.01);
      }
    });
  });
});
