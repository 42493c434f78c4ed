/**
 * The service's sherpa-onnx engine on models of the real format (test-support/models: random
 * weights, made by scripts/fixtures/make-sherpa-fixture-models.py): sherpa-onnx-node runs its real
 * decode loop (loading, feature extraction, decoding, token times, Whisper language identification)
 * on real recordings. The words are nonsense, so these tests assert structure, timing and behaviour,
 * never text.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { LANGUAGES } from '../../../../contract/spec/languages.ts';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { buildSherpaConfig } from './build-sherpa-config.ts';
import { assertModelReady, listInstalledModels } from '../../models/list-installed-models.ts';
import { findCatalogModel, type CatalogModel } from '../../models/model-catalog.ts';
import type { RecognitionRequest, RecognizedSegment } from '../../recognition-engine.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { resolveDefaultVadModelPath } from '../../../vad/locate-vad-model.ts';
import { transcribeRecording } from '../../transcribe-recording.ts';
import { runSherpaProcess, type SherpaJob } from './run-sherpa-process.ts';
import { createSherpaOnnxEngine, probeSherpaModel } from './sherpa-onnx-engine.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';

const MODELS_DIR = path.join(import.meta.dirname, '../../test-support/models');
const WHISPER = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const SENSE_VOICE = findCatalogModel('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17')!;
const TDT = findCatalogModel('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8')!;
/** Lines of the TDT fixture's tokens.txt (140 pieces, `<unk>` and the blank). */
const TDT_VOCAB = 142;
/** The languages the Whisper fixture can identify (its `all_language_codes`). */
const WHISPER_FIXTURE_LANGUAGES = ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja'];
const SPEC_CODES = new Set(LANGUAGES.map((language) => language.code));
const JFK = audioPath('jfk.wav');
/** Silero VAD intervals of jfk.wav (as sherpa-onnx-engine.test.ts). */
const JFK_SPEECH: VadInterval[] = [
  { start: 0.286, end: 2.284 },
  { start: 3.262, end: 4.428 },
  { start: 5.374, end: 7.692 },
  { start: 8.158, end: 10.976 },
];
const LIBRISPEECH = audioPath('librispeech-test-clean/1089-134686-0000.wav');
/** 332.8 s of Hi-Fi TTS clips with 0.3 s digital silence between them. */
const LONG = audioPath('long_hifitts6097_concat_16k.wav');
/** Silero VAD intervals (detectSpeech, default model) of the first 98 s of LONG. */
const LONG_SPEECH: VadInterval[] = [
  { start: 0.03, end: 2.476 },
  { start: 2.974, end: 23.916 },
  { start: 24.414, end: 39.404 },
  { start: 39.966, end: 49.868 },
  { start: 50.334, end: 65.42 },
  { start: 65.918, end: 76.204 },
  { start: 76.798, end: 97.708 },
];
const PROCESS_SCRIPT = 'sherpa-onnx-recognize.process.cjs';

const whisper = createSherpaOnnxEngine({ modelsDir: MODELS_DIR, models: [WHISPER], maxThreads: 1 });
const senseVoice = createSherpaOnnxEngine({ modelsDir: MODELS_DIR, models: [SENSE_VOICE], maxThreads: 1 });
const transducer = createSherpaOnnxEngine({ modelsDir: MODELS_DIR, models: [TDT], maxThreads: 1 });

function request(
  wavPath: string,
  durationSeconds: number,
  speech: VadInterval[],
  extra: Partial<RecognitionRequest> = {},
): RecognitionRequest {
  return { wavPath, durationSeconds, speech, language: null, prompt: null, hotwords: [], ...extra };
}

/** Pids of the recognition child processes this test process has running. */
function recognitionChildren(): number[] {
  const result = spawnSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,args='], { encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .filter((line) => line.includes(PROCESS_SCRIPT))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Resident memory of `pid` in bytes (Linux /proc), or 0 when it is gone. */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kilobytes ? Number(kilobytes) * 1024 : 0;
}

async function failureOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

/**
 * The invariants every engine's output keeps (as the PocketSphinx and OpenAI engine tests check).
 * `scored`: the model gives token scores (transducers), so every word has a confidence in (0, 1]
 * and every segment an avg_logprob ≤ 0; otherwise both are null.
 */
function expectWellFormed(segments: RecognizedSegment[], durationSeconds: number, model: CatalogModel, scored = false) {
  expect(segments.length).toBeGreaterThan(0);
  segments.forEach((segment, i) => {
    expect(segment.start).toBeGreaterThanOrEqual(0);
    expect(segment.end).toBeGreaterThan(segment.start);
    expect(segment.end).toBeLessThanOrEqual(durationSeconds + 0.001);
    if (i > 0) expect(segment.start).toBeGreaterThanOrEqual(segments[i - 1]!.end);
    expect(segment.text).not.toBe('');
    expect(segment.text).toBe(segment.words.map((word) => word.text).join(' '));
    expect(segment.language === null || model.languages.includes(segment.language)).toBe(true);
    if (scored) expect(segment.avgLogprob).toBeLessThanOrEqual(0);
    else expect(segment.avgLogprob ?? null).toBeNull();
    segment.words.forEach((word, j) => {
      expect(word.text).not.toMatch(/\s|▁|<\|/);
      expect(word.start).toBeGreaterThanOrEqual(segment.start);
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(segment.end);
      if (scored) {
        expect(word.confidence).toBeGreaterThan(0);
        expect(word.confidence).toBeLessThanOrEqual(1);
      } else expect(word.confidence).toBeNull();
      if (j > 0) expect(word.start).toBeGreaterThanOrEqual(segment.words[j - 1]!.end);
    });
  });
}

/** A job for the recognition process straight from the fixture (no engine in between). */
async function fixtureJob(
  model: CatalogModel,
  wavPath: string,
  utterances: VadInterval[],
  overrides: Partial<SherpaJob> = {},
): Promise<SherpaJob> {
  const layout = await readWavLayout(wavPath);
  const directory = path.join(MODELS_DIR, model.name);
  return {
    modelName: model.name,
    wavPath,
    dataOffset: layout.dataOffset,
    dataBytes: layout.dataBytes,
    sampleRate: layout.sampleRate,
    utterances,
    config: buildSherpaConfig({ model, directory, efficiency: null, language: 'en', maxThreads: 1, tokenTimestamps: true }),
    languageId: null,
    detectSeconds: 30,
    probeOnly: false,
    ...overrides,
  };
}

describe('sherpa-onnx fixtures: the service finds and loads them', () => {
  it('should list the three fixture models as ready catalog models of MODELS_DIR and load each in a child process', async () => {
    const { models } = await listInstalledModels(MODELS_DIR);
    const ready = models.filter((report) => report.status === 'ready').map((report) => report.model.name);
    expect(ready).toEqual(expect.arrayContaining([WHISPER.name, SENSE_VOICE.name, TDT.name]));
    expect((await assertModelReady(MODELS_DIR, WHISPER.name)).bytes).toBeLessThan(1_000_000);
    expect((await assertModelReady(MODELS_DIR, TDT.name)).bytes).toBeLessThan(1_000_000);
    for (const model of [WHISPER, SENSE_VOICE, TDT]) {
      const began = performance.now();
      expect(await probeSherpaModel(MODELS_DIR, model.name)).toBe(model);
      console.log(`${model.name}: probe (child start + load) ${Math.round(performance.now() - began)} ms`);
    }
  });
});

describe.each([
  ['Whisper', whisper, WHISPER, 'yue'],
  ['SenseVoice', senseVoice, SENSE_VOICE, 'de'],
] as const)('sherpa-onnx engine on the %s fixture', (family, engine, model, unknownLanguage) => {
  it('should decode jfk.wav into well-formed segments with model token times, reporting progress', async () => {
    const progress: number[] = [];
    const began = performance.now();
    const segments = await engine.recognize(request(JFK, 11, JFK_SPEECH, { onProgress: (fraction) => progress.push(fraction) }));
    const seconds = (performance.now() - began) / 1000;
    console.log(
      `${family} jfk.wav: ${seconds.toFixed(3)} s wall for 11 s (RTF ${(seconds / 11).toFixed(3)}, child start and load included), ${segments.flatMap((s) => s.words).length} words`,
    );
    expectWellFormed(segments, 11, model);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    // Model times on the 20 ms (Whisper) or 60 ms (SenseVoice) frame grid, shifted by the utterance start.
    const words = segments.flatMap((segment) => segment.words);
    expect(new Set(words.map((word) => word.start)).size).toBeGreaterThan(3);
    const grid = family === 'Whisper' ? 0.02 : 0.06;
    for (const segment of segments) {
      for (const word of segment.words) {
        const steps = (word.start - segment.start) / grid;
        expect(Math.abs(steps - Math.round(steps))).toBeLessThan(0.05);
      }
    }
  });

  it('should decode a LibriSpeech clip with VAD-free whole-file speech, words ordered within the audio', async () => {
    const { durationSeconds } = await readWavLayout(LIBRISPEECH);
    const segments = await engine.recognize(request(LIBRISPEECH, durationSeconds, [{ start: 0, end: durationSeconds }]));
    expectWellFormed(segments, durationSeconds, model);
    expect(segments.at(-1)!.words.at(-1)!.end).toBeLessThanOrEqual(durationSeconds);
  });

  it('should refuse a language the model does not know, and return nothing without speech (contract of every engine)', async () => {
    await expect(engine.recognize(request(JFK, 11, JFK_SPEECH, { language: unknownLanguage }))).rejects.toMatchObject({
      code: 'invalid_input',
      param: 'language',
    });
    expect(await engine.recognize(request(JFK, 11, []))).toEqual([]);
    expect(engine.name).toBe('sherpa-onnx');
    expect(engine.defaultLanguage).toBe('en');
    expect(engine.identifiesLanguages).toBe(true);
    expect(engine.nativeHints?.({ language: null, efficiency: null })).toEqual({ prompt: false, hotwords: false });
  });

  it('should reject with the abort reason before starting anything when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled early'));
    await expect(engine.recognize(request(JFK, 11, JFK_SPEECH, { signal: controller.signal }))).rejects.toThrow('cancelled early');
    expect(recognitionChildren()).toEqual([]);
  });
});

describe('sherpa-onnx engine on the NeMo TDT transducer fixture: token scores', () => {
  /** Mean of `values`. */
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

  it("should get one log-probability per token from sherpa-onnx, each that of the greedy step's most likely token", async () => {
    const job = await fixtureJob(TDT, JFK, JFK_SPEECH);
    const { results } = await runSherpaProcess(job, { timeoutMs: 60_000 });
    expect(results).toHaveLength(4);
    for (const result of results) {
      expect(result.tokens.length).toBeGreaterThan(3);
      expect(result.logProbs).toHaveLength(result.tokens.length);
      expect(result.timestamps).toHaveLength(result.tokens.length);
      expect(result.durations).toHaveLength(result.tokens.length);
      for (const score of result.logProbs!) {
        // Greedy search keeps the arg max of a softmax over the 142 tokens: its probability is at least 1/142.
        expect(score).toBeLessThanOrEqual(0);
        expect(score).toBeGreaterThanOrEqual(-Math.log(TDT_VOCAB) - 1e-4);
      }
      expect(new Set(result.logProbs).size).toBeGreaterThan(result.tokens.length / 2);
      // Times and TDT durations on the 80 ms grid of the encoder (10 ms frames, subsampling 8).
      for (const seconds of [...result.timestamps, ...result.durations!])
        expect(Math.abs(seconds / 0.08 - Math.round(seconds / 0.08))).toBeLessThan(1e-3);
    }
    // The four stretches of speech score differently: the scores follow the audio.
    expect(new Set(results.map((result) => mean(result.logProbs!).toFixed(3))).size).toBeGreaterThan(1);
  });

  it('should turn them into each segment avg_logprob (their mean) and each word a confidence (exp of its tokens mean)', async () => {
    const job = await fixtureJob(TDT, JFK, [{ start: 0, end: 11 }]);
    const [raw] = (await runSherpaProcess(job, { timeoutMs: 60_000 })).results;
    const segments = await transducer.recognize(request(JFK, 11, [{ start: 0, end: 11 }], { language: 'en' }));
    expectWellFormed(segments, 11, TDT, true);
    expect(segments).toHaveLength(1);
    const [segment] = segments;
    expect(segment!.avgLogprob).toBeCloseTo(mean(raw!.logProbs!), 3);
    const confidences = segment!.words.map((word) => word.confidence!);
    expect(new Set(confidences).size).toBeGreaterThan(confidences.length / 3);
    // Each word's tokens: a token with a leading space (sherpa-onnx's rendering of ▁) starts a word.
    expect(raw!.tokens.filter((piece) => piece.startsWith(' ')).length).toBe(segment!.words.length);
    let token = 0;
    for (const word of segment!.words) {
      const scores = [raw!.logProbs![token]!];
      for (token += 1; token < raw!.tokens.length && !/^[\s▁]/.test(raw!.tokens[token]!); token += 1) scores.push(raw!.logProbs![token]!);
      expect(word.confidence).toBeCloseTo(Math.exp(mean(scores)), 3);
    }
    expect(token).toBe(raw!.tokens.length);
  });

  it('should decode jfk.wav and a LibriSpeech clip with model token times on the 80 ms grid and different scores', async () => {
    const jfk = await transducer.recognize(request(JFK, 11, JFK_SPEECH, { language: 'en' }));
    expectWellFormed(jfk, 11, TDT, true);
    for (const segment of jfk)
      for (const word of segment.words) {
        const steps = (word.start - segment.start) / 0.08;
        expect(Math.abs(steps - Math.round(steps))).toBeLessThan(0.05);
      }
    const { durationSeconds } = await readWavLayout(LIBRISPEECH);
    const libri = await transducer.recognize(
      request(LIBRISPEECH, durationSeconds, [{ start: 0, end: durationSeconds }], { language: 'en' }),
    );
    expectWellFormed(libri, durationSeconds, TDT, true);
    expect(libri[0]!.avgLogprob).not.toBe(jfk[0]!.avgLogprob);
  });

  it('should give scores with modified beam search too (accurate, and hotwords)', async () => {
    for (const extra of [{ efficiency: 'accurate' as const }, { hotwords: ['bara', 'zi ti'] }]) {
      expect(transducer.nativeHints?.({ language: 'en', efficiency: extra.efficiency ?? null })).toEqual({ prompt: false, hotwords: true });
      const segments = await transducer.recognize(request(JFK, 11, JFK_SPEECH, { language: 'en', ...extra }));
      expectWellFormed(segments, 11, TDT, true);
    }
  });

  it('should flag segments from those scores: low_logprob exactly where avg_logprob is below the limit', async () => {
    const transcribe = (flagThresholds: { logprobBelow: number }) =>
      transcribeRecording({
        wavPath: LIBRISPEECH,
        durationSeconds: 10.435,
        formatName: 'wav',
        engine: transducer,
        vadModelPath: resolveDefaultVadModelPath(),
        language: 'en',
        prompt: null,
        hotwords: [],
        flagThresholds,
      });
    const whisperLimit = await transcribe({ logprobBelow: -1 });
    const segments = whisperLimit.segments;
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) {
      expect(segment.avgLogprob).toBeLessThan(0);
      expect(segment.flags?.includes('low_logprob')).toBe(segment.avgLogprob! < -1);
      expect(segment.noSpeechProb).not.toBeNull();
    }
    // Random weights spread the probability over 142 tokens: the noise they speak is flagged.
    expect(segments.some((segment) => segment.flags?.includes('low_logprob'))).toBe(true);
    // The same scores under a limit below the lowest: no low_logprob (so it comes from the scores).
    const lowest = Math.min(...segments.map((segment) => segment.avgLogprob!));
    const lenient = await transcribe({ logprobBelow: lowest - 0.01 });
    expect(lenient.segments.map((segment) => segment.avgLogprob)).toEqual(segments.map((segment) => segment.avgLogprob));
    expect(lenient.segments.some((segment) => segment.flags?.includes('low_logprob'))).toBe(false);
  });
});

describe("sherpa-onnx engine: Whisper's translate task", () => {
  it('should say which engines translate: multilingual Whisper does, SenseVoice does not', () => {
    expect(whisper.translates).toBe(true);
    expect(senseVoice.translates).toBe(false);
  });

  it('should decode with the translate task into English segments, and refuse it without a translating model', async () => {
    const translated = await whisper.recognize(request(JFK, 11, JFK_SPEECH, { task: 'translate' }));
    expect(translated.length).toBeGreaterThan(0);
    expect(translated.every((segment) => segment.language === 'en')).toBe(true);
    await expect(senseVoice.recognize(request(JFK, 11, JFK_SPEECH, { task: 'translate' }))).rejects.toMatchObject({
      code: 'invalid_input',
      param: 'task',
    });
  });
});

describe('sherpa-onnx engine: language identification (Whisper)', () => {
  it('should identify one language for the recording and tag every segment with it', async () => {
    const segments = await whisper.recognize(
      request(LIBRISPEECH, 10.435, [
        { start: 0.2, end: 4.6 },
        { start: 5.4, end: 10.3 },
      ]),
    );
    const languages = new Set(segments.map((segment) => segment.language));
    expect(languages.size).toBe(1);
    const [language] = languages;
    expect(WHISPER_FIXTURE_LANGUAGES).toContain(language);
    expect(SPEC_CODES.has(language!)).toBe(true);
  });

  it('should identify the language of each utterance with multilingual, and take a requested language as given', async () => {
    const perUtterance = await whisper.recognize(request(JFK, 11, JFK_SPEECH, { multilingual: true }));
    for (const segment of perUtterance) expect(WHISPER_FIXTURE_LANGUAGES).toContain(segment.language);
    const german = await whisper.recognize(request(JFK, 11, JFK_SPEECH, { language: 'de' }));
    expect(german.length).toBeGreaterThan(0);
    expect(german.every((segment) => segment.language === 'de')).toBe(true);
    // The catalog promises 99 languages; the fixture's encoder lists 8. Asking for another would make
    // sherpa-onnx exit ("Invalid language"): the engine refuses it from the metadata first.
    await expect(whisper.recognize(request(JFK, 11, JFK_SPEECH, { language: 'sw' }))).rejects.toMatchObject({
      code: 'invalid_input',
      param: 'language',
    });
  });

  it('should report SenseVoice language tags per utterance as spec codes', async () => {
    const segments = await senseVoice.recognize(request(JFK, 11, JFK_SPEECH, { multilingual: true }));
    expect(segments.every((segment) => segment.language === 'en')).toBe(true); // the fixture tags auto as <|en|>
    const chinese = await senseVoice.recognize(request(JFK, 11, JFK_SPEECH, { language: 'zh' }));
    expect(chinese.every((segment) => segment.language === 'zh')).toBe(true);
  });
});

describe('sherpa-onnx runtime pitfalls, met where the engine meets them', () => {
  it('should get Whisper token times only from the number flag, and turn a boolean flag into one', async () => {
    const job = await fixtureJob(WHISPER, JFK, [{ start: 0, end: 11 }]);
    const timed = await runSherpaProcess(job, { timeoutMs: 60_000 });
    expect(timed.results[0]!.tokens.length).toBeGreaterThan(5);
    expect(timed.results[0]!.timestamps).toHaveLength(timed.results[0]!.tokens.length);
    expect(timed.results[0]!.durations).toHaveLength(timed.results[0]!.tokens.length);
    const off = {
      ...job,
      config: {
        ...job.config,
        modelConfig: { ...job.config.modelConfig, whisper: { ...job.config.modelConfig.whisper!, enableTokenTimestamps: 0 } },
      },
    };
    expect((await runSherpaProcess(off, { timeoutMs: 60_000 })).results[0]!.timestamps).toEqual([]);
    // sherpa-onnx-node ignores `true`; the recognition process turns it into 1.
    const boolean = {
      ...job,
      config: {
        ...job.config,
        modelConfig: {
          ...job.config.modelConfig,
          whisper: { ...job.config.modelConfig.whisper!, enableTokenTimestamps: true as unknown as number },
        },
      },
    };
    const fixed = await runSherpaProcess(boolean, { timeoutMs: 60_000 });
    expect(fixed.results[0]!.timestamps).toEqual(timed.results[0]!.timestamps);
  });

  it('should decode speech past 30 s by cutting it into utterances of at most 28 s, with offsets stitched', async () => {
    // One 60 s stretch without a pause: Whisper would hear only its first 30 s in one call.
    const whole = await runSherpaProcess(await fixtureJob(WHISPER, LONG, [{ start: 0, end: 60 }]), { timeoutMs: 60_000 });
    expect(Math.max(...whole.results[0]!.timestamps)).toBeLessThanOrEqual(30);
    const segments = await whisper.recognize(request(LONG, 332.8, [{ start: 0, end: 60 }], { language: 'en' }));
    expectWellFormed(segments, 332.8, WHISPER);
    expect(segments.every((segment) => segment.end - segment.start <= 28.001)).toBe(true);
    expect(segments.at(-1)!.end).toBeGreaterThanOrEqual(60); // the speech end, padded by the utterance planner
    expect(segments.at(-1)!.end).toBeLessThanOrEqual(60.5);
    const words = segments.flatMap((segment) => segment.words);
    expect(words.filter((word) => word.start > 30).length).toBeGreaterThan(10);
    expect(words.filter((word) => word.start > 50).length).toBeGreaterThan(0);
  });

  it('should cut a long recording at VAD pauses into utterances of at most 28 s and cover all its speech', async () => {
    const progress: number[] = [];
    const segments = await whisper.recognize(
      request(LONG, 332.8, LONG_SPEECH, { language: 'en', onProgress: (fraction) => progress.push(fraction) }),
    );
    expectWellFormed(segments, 332.8, WHISPER);
    expect(segments.length).toBeGreaterThanOrEqual(4);
    expect(segments.every((segment) => segment.end - segment.start <= 28.001)).toBe(true);
    for (const segment of segments) {
      for (const boundary of [segment.start, segment.end]) {
        const inside = LONG_SPEECH.find((speech) => boundary > speech.start + 0.3 && boundary < speech.end - 0.3);
        expect(inside, `boundary ${boundary} s cuts speech`).toBeUndefined();
      }
    }
    for (const speech of LONG_SPEECH) {
      expect(
        segments.some((segment) => segment.start <= speech.start && segment.end >= speech.end),
        `speech ${speech.start}–${speech.end} s`,
      ).toBe(true);
    }
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('should survive empty and very short utterances, which crash Whisper inside sherpa-onnx', async () => {
    // The pitfall itself: empty input kills a process running Whisper (SIGSEGV).
    const directory = path.join(MODELS_DIR, WHISPER.name);
    const script = `const s = require('sherpa-onnx-node'); const r = new s.OfflineRecognizer(${JSON.stringify(buildSherpaConfig({ model: WHISPER, directory, efficiency: null, language: 'en', maxThreads: 1 }))});
      const st = r.createStream(); st.acceptWaveform({ samples: new Float32Array(0), sampleRate: 16000 }); r.decode(st); console.log('decoded');`;
    const bare = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: path.join(import.meta.dirname, '../../../../..') });
    expect(bare.stdout).not.toContain('decoded');
    expect(bare.signal ?? bare.status).not.toBe(0);
    // The engine's process skips empty utterances and pads short ones with silence.
    const utterances = [
      { start: 1, end: 1 },
      { start: 2, end: 2.005 },
      { start: 20, end: 21 },
      { start: 5.4, end: 7.7 },
    ];
    const output = await runSherpaProcess(await fixtureJob(WHISPER, JFK, utterances), { timeoutMs: 60_000 });
    expect(output.results.map((result) => [result.start, result.end])).toEqual(utterances.map((u) => [u.start, u.end]));
    expect(output.results[0]!.text).toBe('');
    expect(output.results[2]!.text).toBe('');
    expect(output.results[3]!.text).not.toBe('');
    // Language identification on no audio at all: no language, no crash.
    const job = await fixtureJob(WHISPER, JFK, [{ start: 20, end: 21 }], {
      languageId: {
        whisper: { encoder: path.join(directory, WHISPER.files.encoder!), decoder: path.join(directory, WHISPER.files.decoder!) },
        numThreads: 1,
        provider: 'cpu',
        debug: 0,
      },
    });
    expect(await runSherpaProcess(job, { timeoutMs: 60_000 })).toEqual({
      results: [expect.objectContaining({ text: '' })],
      identifiedLanguage: null,
    });
  });

  describe('a model without a metadata key sherpa-onnx needs', () => {
    let modelsDir: string;
    let encoder: string;
    beforeAll(async () => {
      modelsDir = await mkdtemp(path.join(tmpdir(), 'sherpa-fixture-'));
      await cp(path.join(MODELS_DIR, WHISPER.name), path.join(modelsDir, WHISPER.name), { recursive: true });
      encoder = path.join(modelsDir, WHISPER.name, WHISPER.files.encoder!);
      // Cut the top-level metadata_props entry n_mels=80 (field 14: tag 0x72, then key 1 and value 2).
      const entry = Buffer.concat([Buffer.from([0x72, 12, 0x0a, 6]), Buffer.from('n_mels'), Buffer.from([0x12, 2]), Buffer.from('80')]);
      const bytes = await readFile(encoder);
      const at = bytes.indexOf(entry);
      expect(at).toBeGreaterThan(0);
      await writeFile(encoder, Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + entry.length)]));
    });
    afterAll(async () => {
      await rm(modelsDir, { recursive: true, force: true });
    });

    it('should be refused before loading, naming the file and the key', async () => {
      const engine = createSherpaOnnxEngine({ modelsDir, models: [WHISPER], maxThreads: 1 });
      const error = await failureOf(engine.recognize(request(JFK, 11, JFK_SPEECH)));
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('engine_unavailable');
      expect(error.message).toBe(
        `sherpa-onnx model sherpa-onnx-whisper-tiny is broken: ${encoder} lacks the metadata key 'n_mels' (sherpa-onnx reads them from the whisper encoder file and ends the process without them); reinstall it with \`npm run models -- download sherpa-onnx-whisper-tiny\``,
      );
      await expect(probeSherpaModel(modelsDir, WHISPER.name)).rejects.toMatchObject({
        code: 'engine_unavailable',
        message: expect.stringContaining(`${encoder} lacks the metadata key 'n_mels'`),
      });
    });

    it('should, loaded anyway, end only the child process (exit status 255), with sherpa-onnx naming the key', async () => {
      const job = await fixtureJob(WHISPER, JFK, JFK_SPEECH);
      job.config.modelConfig.whisper!.encoder = encoder;
      const error = await failureOf(runSherpaProcess(job, { timeoutMs: 60_000 }));
      expect(error).toMatchObject({ code: 'engine_unavailable' });
      expect(error.message).toMatch(
        /^sherpa-onnx exited with code 255 while loading model sherpa-onnx-whisper-tiny: .*'n_mels' does not exist in the metadata/,
      );
    });
  });
});

describe('sherpa-onnx engine: isolation, cancellation, memory', () => {
  it('should fail the recognition, not the service, when native code crashes while decoding', async () => {
    // A crash in native code ends the child process with a signal. The child gets SIGSEGV in the
    // middle of decoding, which is what the engine sees of such a crash, on every run. (A model made
    // to crash, e.g. a Whisper folder whose decoder is SenseVoice's, is undefined behaviour in ONNX
    // Runtime: it crashed in most runs but not all, so it cannot be the test's cause.)
    const speech = Array.from({ length: 10 }, (_, i) => ({ start: i * 30, end: i * 30 + 27 }));
    let crashed: number[] = [];
    const running = whisper.recognize(
      request(LONG, 332.8, speech, {
        language: 'en',
        onProgress: (fraction) => {
          if (crashed.length > 0 || fraction >= 1) return;
          crashed = recognitionChildren();
          for (const pid of crashed) process.kill(pid, 'SIGSEGV');
        },
      }),
    );
    const error = await failureOf(running);
    expect(crashed).toHaveLength(1);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('recognition_failed');
    expect(error.message).toMatch(/^sherpa-onnx was killed by SIGSEGV while decoding/);
    // This process is alive and the engine still works.
    expect((await whisper.recognize(request(JFK, 11, JFK_SPEECH.slice(0, 1), { language: 'en' }))).length).toBeGreaterThan(0);
    expect(recognitionChildren()).toEqual([]);
  });

  it('should stop mid-decode on abort: reject promptly with the reason, the child process gone', async () => {
    const controller = new AbortController();
    const speech = Array.from({ length: 10 }, (_, i) => ({ start: i * 30, end: i * 30 + 27 }));
    let abortedAt = 0;
    let pids: number[] = [];
    const running = whisper.recognize(
      request(LONG, 332.8, speech, {
        language: 'en',
        onProgress: (fraction) => {
          if (abortedAt > 0 || fraction >= 1) return;
          pids = recognitionChildren();
          abortedAt = performance.now();
          controller.abort(new Error('cancelled by the user'));
        },
        signal: controller.signal,
      }),
    );
    await expect(running).rejects.toThrow('cancelled by the user');
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(pids).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recognitionChildren()).toEqual([]);
    expect(() => process.kill(pids[0]!, 0)).toThrow(/ESRCH/);
  });

  it('should keep each of two concurrent recognitions within a bounded memory of its own process', async () => {
    const speech = Array.from({ length: 4 }, (_, i) => ({ start: i * 28, end: (i + 1) * 28 }));
    const peak = new Map<number, number>();
    const sampler = setInterval(() => {
      // A pid read as 0 is gone or a zombie (an earlier test's child being reaped): not one of the two.
      for (const pid of recognitionChildren()) {
        void residentBytes(pid).then((bytes) => (bytes > 0 ? peak.set(pid, Math.max(peak.get(pid) ?? 0, bytes)) : undefined));
      }
    }, 25);
    const began = performance.now();
    try {
      const [a, b] = await Promise.all([
        whisper.recognize(request(LONG, 332.8, speech, { language: 'en' })),
        senseVoice.recognize(request(LONG, 332.8, speech)),
      ]);
      expectWellFormed(a, 332.8, WHISPER);
      expectWellFormed(b, 332.8, SENSE_VOICE);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - began) / 1000;
    const peaks = [...peak.values()];
    console.log(
      `two concurrent recognitions of 112 s each: ${seconds.toFixed(2)} s wall; peak RSS per child ${peaks.map((bytes) => `${(bytes / 1e6).toFixed(0)} MB`).join(', ')}`,
    );
    expect(peaks).toHaveLength(2);
    for (const bytes of peaks) {
      expect(bytes).toBeGreaterThan(20e6); // a node process with ONNX Runtime loaded
      expect(bytes).toBeLessThan(300e6);
    }
  });
});
