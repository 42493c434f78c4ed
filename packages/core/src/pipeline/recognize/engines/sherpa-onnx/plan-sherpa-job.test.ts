import { describe, expect, it } from 'vitest';
import { findCatalogModel } from '../../models/model-catalog.ts';
import { planSherpaJob, whisperLanguageIdentification, type SherpaJobInput } from './plan-sherpa-job.ts';

const model = (name: string) => findCatalogModel(name)!;
const WHISPER = model('sherpa-onnx-whisper-base');
const WHISPER_EN = model('sherpa-onnx-whisper-tiny.en');
const SENSE_VOICE = model('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17');
const CANARY = model('sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8');

const UTTERANCES = [
  { start: 0.2, end: 4.1 },
  { start: 6, end: 12.5 },
];
const input = (overrides: Partial<SherpaJobInput> = {}): SherpaJobInput => ({
  model: WHISPER,
  directory: '/m/w',
  layout: { dataOffset: 44, dataBytes: 400_000, sampleRate: 16000 },
  utterances: UTTERANCES,
  maxThreads: 2,
  detectSeconds: 30,
  hotwords: null,
  ...overrides,
});
const request = (language: string | null, multilingual?: boolean) => ({
  wavPath: '/w/audio.wav',
  language,
  multilingual,
  efficiency: null,
});

describe('whisperLanguageIdentification', () => {
  it('should identify once without multilingual and per utterance with it, on multilingual Whisper only', () => {
    expect(whisperLanguageIdentification(WHISPER, { language: null })).toBe('once');
    expect(whisperLanguageIdentification(WHISPER, { language: null, multilingual: false })).toBe('once');
    expect(whisperLanguageIdentification(WHISPER, { language: null, multilingual: true })).toBe('per-utterance');
    expect(whisperLanguageIdentification(WHISPER, { language: 'de', multilingual: true })).toBe('none');
    expect(whisperLanguageIdentification(WHISPER_EN, { language: null, multilingual: true })).toBe('none');
    expect(whisperLanguageIdentification(SENSE_VOICE, { language: null, multilingual: true })).toBe('none');
  });
});

describe('planSherpaJob', () => {
  it('should identify the language once on multilingual Whisper without multilingual (unchanged)', () => {
    const job = planSherpaJob(request(null), input());
    expect(job.languageId).toEqual({
      whisper: { encoder: '/m/w/base-encoder.int8.onnx', decoder: '/m/w/base-decoder.int8.onnx' },
      numThreads: 2,
      provider: 'cpu',
      debug: 0,
    });
    expect(job.detectSeconds).toBe(30);
    expect(job.config.modelConfig.whisper?.language).toBe('');
  });

  it('should leave the Whisper language empty and skip the one-off identification with multilingual, so each utterance is identified', () => {
    const job = planSherpaJob(request(null, true), input());
    expect(job.languageId).toBeNull();
    expect(job.config.modelConfig.whisper).toEqual({
      encoder: '/m/w/base-encoder.int8.onnx',
      decoder: '/m/w/base-decoder.int8.onnx',
      language: '',
      task: 'transcribe',
    });
    expect(job.utterances).toEqual(UTTERANCES);
    expect(job).toMatchObject({
      modelName: WHISPER.name,
      wavPath: '/w/audio.wav',
      dataOffset: 44,
      dataBytes: 400_000,
      sampleRate: 16000,
      probeOnly: false,
    });
  });

  it('should decode a requested language as asked, multilingual or not', () => {
    for (const multilingual of [true, false]) {
      const job = planSherpaJob(request('de', multilingual), input());
      expect(job.languageId).toBeNull();
      expect(job.config.modelConfig.whisper?.language).toBe('de');
    }
  });

  it('should let SenseVoice report the language of each utterance itself and give Canary no identification', () => {
    const sense = planSherpaJob(request(null, true), input({ model: SENSE_VOICE, directory: '/m/s' }));
    expect(sense.languageId).toBeNull();
    expect(sense.config.modelConfig.senseVoice?.language).toBe('auto');
    expect(planSherpaJob(request(null, false), input({ model: CANARY, directory: '/m/c' })).languageId).toBeNull();
  });
});
