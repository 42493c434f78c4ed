import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { detectSpeech } from '../../../vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from '../../../vad/locate-vad-model.ts';
import {
  buildRemotePrompt,
  createOpenAiAsrEngine,
  DEFAULT_MAX_CHUNK_SECONDS,
  DEFAULT_MAX_REQUEST_BYTES,
  remoteChunkLimits,
  type OpenAiAsrOptions,
} from './openai-asr-engine.ts';
import { planRemoteChunks } from './plan-remote-chunks.ts';
import type { RecognitionRequest } from '../../recognition-engine.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';
import { summarizeLanguages } from '../../summarize-languages.ts';
import {
  fingerprintTranscription,
  startTranscriptionServer,
  type RecordedTranscriptionRequest,
  type TranscriptionServer,
} from '../../test-support/start-transcription-server.ts';

const JFK = audioPath('jfk.wav');
const JFK_SPEECH: VadInterval[] = [
  { start: 0.29, end: 2.28 },
  { start: 3.26, end: 4.46 },
  { start: 5.37, end: 7.69 },
  { start: 8.16, end: 10.98 },
];
/** Clips of ordinary loudness (Silero VAD loses very quiet speech that follows loud speech). */
const CLIPS = [
  'jfk.wav',
  'librispeech-test-clean/1089-134686-0000.wav',
  'fleurs/fleurs-en-001.wav',
  'fleurs/fleurs-de-001.wav',
  'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0870.wav',
  'fleurs/fleurs-es-000.wav',
  'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0890.wav',
  'librispeech-test-clean/1089-134686-0001.wav',
];

let server: TranscriptionServer;
let scratch: string;

beforeAll(async () => {
  server = await startTranscriptionServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'openai-asr-test-'));
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.setScript(() => ({}));
});

function engineFor(overrides: Partial<OpenAiAsrOptions> = {}) {
  return createOpenAiAsrEngine({
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    model: 'whisper-test',
    timeoutMs: 5000,
    maxRetries: 2,
    concurrency: 2,
    retryBaseDelayMs: 10,
    ...overrides,
  });
}

function jfkRequest(extra: Partial<RecognitionRequest> = {}): RecognitionRequest {
  return { wavPath: JFK, durationSeconds: 11, speech: JFK_SPEECH, language: null, prompt: null, hotwords: [], ...extra };
}

async function failureOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

/** The 8 clips (≈ 70 s) each followed by 2 s of digital silence: ≈ 86 s, 16 kHz mono. */
async function makeLongWav(): Promise<string> {
  const output = path.join(scratch, 'long.wav');
  const inputs = CLIPS.flatMap((clip) => ['-i', audioPath(clip)]);
  const pads = CLIPS.map((_, i) => `[${i}:a]apad=pad_dur=2[a${i}]`).join(';');
  const filter = `${pads};${CLIPS.map((_, i) => `[a${i}]`).join('')}concat=n=${CLIPS.length}:v=0:a=1[out]`;
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    ...inputs,
    '-filter_complex',
    filter,
    '-map',
    '[out]',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
    '-y',
    output,
  ]);
  return output;
}

describe('openai-compatible engine', () => {
  it('should send one chunk as multipart verbose_json and stitch the answer', async () => {
    const answer = {
      language: 'english',
      duration: 10.96,
      text: 'And so my fellow Americans ask not.',
      segments: [
        { id: 0, start: 0, end: 4.5, text: ' And so my fellow Americans', avg_logprob: -0.3 },
        { id: 1, start: 4.5, end: 10.9, text: ' ask not.', avg_logprob: -0.1 },
      ],
      words: [
        { word: ' And', start: 0.26, end: 0.5 },
        { word: ' Americans', start: 3.3, end: 4.4 },
        { word: ' not.', start: 5, end: 5.6 },
      ],
    };
    server.setScript(() => ({ body: answer }));
    const progress: number[] = [];
    const segments = await engineFor().recognize(jfkRequest({ onProgress: (f) => progress.push(f) }));
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe('Bearer test-key');
    expect(request!.fields).toEqual({
      model: ['whisper-test'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['segment', 'word'],
    });
    expect(request!.file).toMatchObject({ fieldName: 'file', mimeType: 'audio/wav' });
    expect(request!.durationSeconds).toBeCloseTo(10.96, 3); // 0.04 s (0.29 padded by 0.25) to the end
    expect(segments).toEqual([
      {
        start: 0.04,
        end: 4.54,
        text: 'And so my fellow Americans',
        language: 'en',
        avgLogprob: -0.3, // the server's own, passed through; its words carry no probability of their own
        words: [
          { start: 0.3, end: 0.54, text: 'And', confidence: null },
          { start: 3.34, end: 4.44, text: 'Americans', confidence: null },
        ],
      },
      {
        start: 4.54,
        end: 10.94,
        text: 'ask not.',
        language: 'en',
        avgLogprob: -0.1,
        words: [{ start: 5.04, end: 5.64, text: 'not.', confidence: null }],
      },
    ]);
    expect(progress).toEqual([1]);
  });

  it('should forward language, prompt and hotwords', async () => {
    const segments = await engineFor().recognize(jfkRequest({ language: 'de', prompt: 'Eine Rede.', hotwords: ['Kennedy', 'Amerika'] }));
    expect(server.requests[0]!.fields.language).toEqual(['de']);
    expect(server.requests[0]!.fields.prompt).toEqual(['Eine Rede. Kennedy, Amerika']);
    expect(segments.every((segment) => segment.language === 'de')).toBe(true);
  });

  it('should join prompt and hotwords into one prompt, or send none', () => {
    expect(buildRemotePrompt(null, ['Kubernetes', ' ', 'Grafana'])).toBe('Kubernetes, Grafana');
    expect(buildRemotePrompt('  Team meeting.  ', [])).toBe('Team meeting.');
    expect(buildRemotePrompt(' ', [])).toBeUndefined();
  });

  it('should send nothing when there is no speech', async () => {
    expect(await engineFor().recognize(jfkRequest({ speech: [] }))).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('should cut a long recording at VAD pauses, send chunks two at a time and stitch exact offsets', async () => {
    const wavPath = await makeLongWav();
    const { durationSeconds, dataOffset } = await readWavLayout(wavPath);
    expect(durationSeconds).toBeGreaterThan(85);
    const speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
    const limits = { maxRequestBytes: 24 * 1024 * 1024, maxChunkSeconds: 20 };
    const planned = planRemoteChunks(speech, durationSeconds, limits);
    expect(planned.length).toBeGreaterThanOrEqual(4);
    server.setScript(() => ({ delayMs: 150 }));
    const progress: number[] = [];
    const segments = await engineFor({ ...limits, concurrency: 2 }).recognize({
      wavPath,
      durationSeconds,
      speech,
      language: null,
      prompt: null,
      hotwords: [],
      onProgress: (f) => progress.push(f),
    });
    const byLength = (a: number, b: number) => a - b;
    const sent = server.requests.map((r) => r.durationSeconds).sort(byLength);
    expect(sent).toEqual(
      planned
        .map((c) => c.end - c.start)
        .sort(byLength)
        .map((s) => expect.closeTo(s, 3)),
    );
    expect(server.requests.every((r) => r.durationSeconds <= 20)).toBe(true);
    expect(server.maxInFlight).toBe(2);
    // Every word names the 4 samples the server found at its time in the chunk: they must be the long file's samples there.
    const whole = await readFile(wavPath);
    const words = segments.flatMap((segment) => segment.words);
    expect(words.length).toBeGreaterThan(100);
    for (const word of words) {
      const at = dataOffset + Math.round(word.start * 16000) * 2;
      const samples = [0, 1, 2, 3].map((i) => whole.readInt16LE(at + 2 * i));
      expect(word.text).toBe(`w${samples.join(':')}`);
    }
    const covered = (t: number) => segments.some((s) => s.start <= t && t <= s.end); // 2 s segments tile each chunk
    for (const interval of speech) {
      for (let t = interval.start; t <= interval.end; t += 0.1) expect(covered(t), `speech at ${t} s`).toBe(true);
    }
    segments.forEach((segment, i) => i > 0 && expect(segment.start).toBeGreaterThanOrEqual(segments[i - 1]!.end));
    expect(segments.every((segment) => segment.language === 'en')).toBe(true); // the server answered `english`
    expect(progress).toHaveLength(planned.length);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort(byLength)).toEqual(progress);
  });

  it('should keep every request under the byte limit of the server', async () => {
    const limited = await startTranscriptionServer({ maxFileBytes: 100_000 });
    try {
      const segments = await engineFor({ baseUrl: limited.baseUrl, maxRequestBytes: 100_000 }).recognize(jfkRequest());
      expect(limited.requests.length).toBeGreaterThanOrEqual(4); // 11 s is 352 kB as WAV
      expect(limited.requests.every((r) => r.file.bytes.length <= 100_000)).toBe(true);
      expect(segments.length).toBeGreaterThan(0);
      const refused = await failureOf(engineFor({ baseUrl: limited.baseUrl, maxRequestBytes: 400_000 }).recognize(jfkRequest()));
      expect(refused).toMatchObject({ code: 'recognition_failed' });
      expect(refused.message).toMatch(
        /^The speech recognition server refused the audio: 413 Maximum content size limit \(100000\) exceeded \(.*lower that limit\)$/,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('openai-compatible engine with multilingual (spec 2.2)', () => {
  const LIMITS = { maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES, maxChunkSeconds: DEFAULT_MAX_CHUNK_SECONDS };
  /** The scripted server hears English before 40 s of the recording and German after, judged by where the chunk starts. */
  const GERMAN_FROM_SECONDS = 40;
  /** Where the chunk starts in the recording: the engine names each file `chunk-<start>.wav`. */
  const chunkStart = (request: RecordedTranscriptionRequest) => Number(/^chunk-([\d.]+)\.wav$/.exec(request.file.fileName)?.[1]);
  const languageAt = (start: number) => (start < GERMAN_FROM_SECONDS ? 'en' : 'de');
  let wavPath: string;
  let durationSeconds: number;
  let speech: VadInterval[];

  beforeAll(async () => {
    wavPath = await makeLongWav();
    ({ durationSeconds } = await readWavLayout(wavPath));
    speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
  });
  beforeEach(() => {
    server.setScript((request) => {
      const detected = request.fields.language?.[0] ?? (languageAt(chunkStart(request)) === 'en' ? 'english' : 'german');
      return { body: { ...(fingerprintTranscription(request) as object), language: detected } };
    });
  });
  const recognize = (extra: Partial<RecognitionRequest>) =>
    engineFor().recognize({ wavPath, durationSeconds, speech, language: null, prompt: null, hotwords: [], ...extra });

  it('should plan utterances of at most 30 s, joined across pauses of at most 1 s, only without a language', () => {
    expect(remoteChunkLimits(LIMITS, { language: null, multilingual: true })).toMatchObject({ maxChunkSeconds: 30, maxPauseSeconds: 1 });
    expect(remoteChunkLimits({ ...LIMITS, maxChunkSeconds: 20 }, { language: null, multilingual: true }).maxChunkSeconds).toBe(20);
    expect(remoteChunkLimits(LIMITS, { language: 'de', multilingual: true })).toBe(LIMITS);
    expect(remoteChunkLimits(LIMITS, { language: null, multilingual: false })).toBe(LIMITS);
    expect(remoteChunkLimits(LIMITS, { language: null })).toBe(LIMITS);
  });

  it('should send one request per utterance and tag every segment with the language the server found in its chunk', async () => {
    const planned = planRemoteChunks(speech, durationSeconds, { ...LIMITS, maxChunkSeconds: 30, maxPauseSeconds: 1 });
    expect(planned.length).toBeGreaterThanOrEqual(4);
    const segments = await recognize({ multilingual: true });
    expect(server.requests).toHaveLength(planned.length);
    expect(server.requests.every((request) => request.durationSeconds <= 30 && request.fields.language === undefined)).toBe(true);
    expect(server.requests.map(chunkStart).sort((a, b) => a - b)).toEqual(planned.map((chunk) => chunk.start));
    for (const segment of segments) {
      const chunk = planned.find((c) => c.start <= segment.start && segment.end <= c.end);
      expect(chunk, `segment at ${segment.start} s`).toBeDefined();
      expect(segment.language, `segment at ${segment.start} s`).toBe(languageAt(chunk!.start));
    }
    // json2 `languages`: both, each with the speech of its chunks (the scripted segments tile each chunk).
    const seconds = (code: string) => planned.filter((c) => languageAt(c.start) === code).reduce((sum, c) => sum + c.end - c.start, 0);
    const { languages } = summarizeLanguages(segments, null, 'en', { multilingual: true });
    expect(languages.map((l) => l.code).sort()).toEqual(['de', 'en']);
    for (const language of languages) {
      expect(language.probability).toBeNull();
      // The scripted answer leaves out a last segment too short for a word (< 0.25 s) in each chunk.
      const chunks = planned.filter((c) => languageAt(c.start) === language.code).length;
      expect(Math.abs(language.duration! - seconds(language.code))).toBeLessThanOrEqual(0.25 * chunks);
    }
  });

  it('should keep the chunking of one language per 300 s chunk without multilingual', async () => {
    const planned = planRemoteChunks(speech, durationSeconds, LIMITS);
    const segments = await recognize({ multilingual: false });
    expect(server.requests).toHaveLength(planned.length);
    expect(planned.length).toBeLessThan(
      planRemoteChunks(speech, durationSeconds, { ...LIMITS, maxChunkSeconds: 30, maxPauseSeconds: 1 }).length,
    );
    expect(new Set(segments.map((segment) => segment.language)).size).toBe(1);
  });

  it('should change nothing but accept it when a language is set', async () => {
    const segments = await recognize({ multilingual: true, language: 'de' });
    expect(server.requests).toHaveLength(planRemoteChunks(speech, durationSeconds, LIMITS).length);
    expect(server.requests.every((request) => request.fields.language?.[0] === 'de')).toBe(true);
    expect(segments.every((segment) => segment.language === 'de')).toBe(true);
  });
});
