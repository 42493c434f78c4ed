import { describe, expect, it } from 'vitest';
import {
  buildLanguageIdConfig,
  buildSherpaConfig,
  chooseDecoding,
  deriveBpeVocab,
  formatHotwordsFile,
  type BuildSherpaConfigInput,
} from './build-sherpa-config.ts';
import { findCatalogModel } from '../../models/model-catalog.ts';

const model = (name: string) => findCatalogModel(name)!;
const WHISPER = model('sherpa-onnx-whisper-base');
const WHISPER_EN = model('sherpa-onnx-whisper-tiny.en');
const SENSE_VOICE = model('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17');
const PARAKEET = model('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8');
const CANARY = model('sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8');
const MOONSHINE = model('sherpa-onnx-moonshine-tiny-en-int8');

const input = (overrides: Partial<BuildSherpaConfigInput> & Pick<BuildSherpaConfigInput, 'model'>): BuildSherpaConfigInput => ({
  directory: `/models/${overrides.model.name}`,
  efficiency: null,
  language: null,
  maxThreads: 2,
  ...overrides,
});

describe('buildSherpaConfig', () => {
  it('should give the streaming families an OnlineRecognizer model config: nemoCtc, or a transducer without a modelType, greedy search at any efficiency', () => {
    const nemo = model('sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-480ms-int8');
    expect(buildSherpaConfig(input({ model: nemo, efficiency: 'accurate', hotwords: { file: 'h', bpeVocab: 'b', score: 1 } }))).toEqual({
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: {
        nemoCtc: { model: `/models/${nemo.name}/model.int8.onnx` },
        tokens: `/models/${nemo.name}/tokens.txt`,
        numThreads: 2,
        provider: 'cpu',
        debug: 0,
      },
      decodingMethod: 'greedy_search',
    });
    const zipformer = model('sherpa-onnx-streaming-zipformer-en-2023-06-26');
    const config = buildSherpaConfig(input({ model: zipformer, efficiency: 'accurate' }));
    expect(config.modelConfig.transducer).toEqual({
      encoder: `/models/${zipformer.name}/encoder-epoch-99-avg-1-chunk-16-left-128.int8.onnx`,
      decoder: `/models/${zipformer.name}/decoder-epoch-99-avg-1-chunk-16-left-128.onnx`,
      joiner: `/models/${zipformer.name}/joiner-epoch-99-avg-1-chunk-16-left-128.int8.onnx`,
    });
    expect(config.modelConfig.modelType).toBeUndefined();
    expect(config.decodingMethod).toBe('greedy_search');
  });

  it('should point Whisper at its int8 files with the requested language and task transcribe', () => {
    const config = buildSherpaConfig(input({ model: WHISPER, language: 'de', maxThreads: 3 }));
    expect(config).toEqual({
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: {
        whisper: {
          encoder: '/models/sherpa-onnx-whisper-base/base-encoder.int8.onnx',
          decoder: '/models/sherpa-onnx-whisper-base/base-decoder.int8.onnx',
          language: 'de',
          task: 'transcribe',
        },
        tokens: '/models/sherpa-onnx-whisper-base/base-tokens.txt',
        numThreads: 3,
        provider: 'cpu',
        debug: 0,
      },
      decodingMethod: 'greedy_search',
    });
  });

  it('should ask Whisper for its translate task when told, and for transcribe otherwise', () => {
    expect(buildSherpaConfig(input({ model: WHISPER, task: 'translate' })).modelConfig.whisper?.task).toBe('translate');
    expect(buildSherpaConfig(input({ model: WHISPER })).modelConfig.whisper?.task).toBe('transcribe');
  });

  it('should leave the Whisper language empty when unknown, and for English-only models', () => {
    expect(buildSherpaConfig(input({ model: WHISPER })).modelConfig.whisper?.language).toBe('');
    expect(buildSherpaConfig(input({ model: WHISPER_EN, language: 'en' })).modelConfig.whisper?.language).toBe('');
  });

  it('should give SenseVoice its language or auto, with inverse text normalisation', () => {
    expect(buildSherpaConfig(input({ model: SENSE_VOICE, language: 'ja' })).modelConfig.senseVoice).toEqual({
      model: `/models/${SENSE_VOICE.name}/model.int8.onnx`,
      language: 'ja',
      useInverseTextNormalization: 1,
    });
    expect(buildSherpaConfig(input({ model: SENSE_VOICE })).modelConfig.senseVoice?.language).toBe('auto');
  });

  it('should make Canary transcribe (source = target language, en by default) with punctuation', () => {
    expect(buildSherpaConfig(input({ model: CANARY, language: 'es' })).modelConfig.canary).toMatchObject({
      srcLang: 'es',
      tgtLang: 'es',
      usePnc: 1,
    });
    expect(buildSherpaConfig(input({ model: CANARY })).modelConfig.canary).toMatchObject({ srcLang: 'en', tgtLang: 'en' });
  });

  it('should give Moonshine its four networks', () => {
    const dir = `/models/${MOONSHINE.name}`;
    expect(buildSherpaConfig(input({ model: MOONSHINE })).modelConfig.moonshine).toEqual({
      preprocessor: `${dir}/preprocess.onnx`,
      encoder: `${dir}/encode.int8.onnx`,
      uncachedDecoder: `${dir}/uncached_decode.int8.onnx`,
      cachedDecoder: `${dir}/cached_decode.int8.onnx`,
    });
  });

  it('should configure a NeMo transducer, with hotword boosting only when hotwords are given', () => {
    const plain = buildSherpaConfig(input({ model: PARAKEET }));
    expect(plain.modelConfig).toMatchObject({
      modelType: 'nemo_transducer',
      transducer: { joiner: `/models/${PARAKEET.name}/joiner.int8.onnx` },
    });
    expect(plain).not.toHaveProperty('hotwordsFile');
    expect(plain.modelConfig).not.toHaveProperty('bpeVocab');
    const boosted = buildSherpaConfig(
      input({ model: PARAKEET, hotwords: { file: '/tmp/h/hotwords.txt', bpeVocab: '/tmp/h/bpe.vocab', score: 1.5 } }),
    );
    expect(boosted).toMatchObject({
      decodingMethod: 'modified_beam_search',
      maxActivePaths: 4,
      hotwordsFile: '/tmp/h/hotwords.txt',
      hotwordsScore: 1.5,
      modelConfig: { modelingUnit: 'bpe', bpeVocab: '/tmp/h/bpe.vocab' },
    });
  });

  it('should never pass hotwords to a family that cannot boost them', () => {
    const config = buildSherpaConfig(input({ model: WHISPER, hotwords: { file: '/h', bpeVocab: '/b', score: 1.5 } }));
    expect(config).not.toHaveProperty('hotwordsFile');
    expect(config.decodingMethod).toBe('greedy_search');
  });

  it('should use at least one thread', () => {
    expect(buildSherpaConfig(input({ model: MOONSHINE, maxThreads: 0 })).modelConfig.numThreads).toBe(1);
  });
});

describe('chooseDecoding', () => {
  it('should map efficiency to greedy or beam search with 2/4/8 paths for transducers', () => {
    expect(chooseDecoding(PARAKEET, 'fast', false)).toEqual({ decodingMethod: 'greedy_search' });
    expect(chooseDecoding(PARAKEET, null, false)).toEqual({ decodingMethod: 'greedy_search' });
    expect(chooseDecoding(PARAKEET, 'accurate', false)).toEqual({ decodingMethod: 'modified_beam_search', maxActivePaths: 8 });
    expect(chooseDecoding(PARAKEET, 'fast', true)).toEqual({ decodingMethod: 'modified_beam_search', maxActivePaths: 2 });
    expect(chooseDecoding(PARAKEET, 'balanced', true)).toEqual({ decodingMethod: 'modified_beam_search', maxActivePaths: 4 });
    expect(chooseDecoding(WHISPER, 'accurate', true)).toEqual({ decodingMethod: 'greedy_search' });
  });
});

describe('buildLanguageIdConfig', () => {
  it('should use the Whisper encoder and decoder of multilingual Whisper only', () => {
    expect(buildLanguageIdConfig(WHISPER, '/m/w', 2)).toEqual({
      whisper: { encoder: '/m/w/base-encoder.int8.onnx', decoder: '/m/w/base-decoder.int8.onnx' },
      numThreads: 2,
      provider: 'cpu',
      debug: 0,
    });
    expect(buildLanguageIdConfig(WHISPER_EN, '/m/w', 2)).toBeNull();
    expect(buildLanguageIdConfig(SENSE_VOICE, '/m/s', 2)).toBeNull();
  });
});

describe('deriveBpeVocab', () => {
  it('should give every piece of tokens.txt the same score', () => {
    expect(deriveBpeVocab('<unk> 0\n▁the 1\nab 2\n\n')).toBe('<unk>\t-1.0\n▁the\t-1.0\nab\t-1.0\n');
  });
});

describe('formatHotwordsFile', () => {
  it('should write one phrase per line without separators sherpa-onnx would misread', () => {
    expect(formatHotwordsFile(['Kubernetes', ' Grafana  Loki ', 'a/b', 'x :2.0', ''])).toBe('Kubernetes\nGrafana Loki\na b\nx 2.0\n');
    expect(formatHotwordsFile(['  ', ''])).toBeNull();
  });
});
