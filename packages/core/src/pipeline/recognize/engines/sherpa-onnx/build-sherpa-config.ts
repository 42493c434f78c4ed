import path from 'node:path';
import type { Efficiency } from '../../../../contract/validation/prediction-input.ts';
import type { CatalogModel, ModelFileRole } from '../../models/model-catalog.ts';

/**
 * sherpa-onnx-node 1.13.x OfflineRecognizer config, or OnlineRecognizer config for the streaming
 * families (`nemoCtc`, or `transducer` without `modelType`): the members this engine sets. Keys are the
 * ones the native addon reads (node_modules/sherpa-onnx-node/types.js, and the addon's strings).
 */
export interface SherpaRecognizerConfig {
  featConfig: { sampleRate: number; featureDim: number };
  modelConfig: {
    /** `enableTokenTimestamps: 1` makes Whisper give token times (from its cross-attention); a number, as every flag. */
    whisper?: { encoder: string; decoder: string; language: string; task: 'transcribe' | 'translate'; enableTokenTimestamps?: number };
    senseVoice?: { model: string; language: string; useInverseTextNormalization: number };
    transducer?: { encoder: string; decoder: string; joiner: string };
    canary?: { encoder: string; decoder: string; srcLang: string; tgtLang: string; usePnc: number };
    moonshine?: { preprocessor: string; encoder: string; uncachedDecoder: string; cachedDecoder: string };
    /** Streaming NeMo CTC (OnlineRecognizer only). */
    nemoCtc?: { model: string };
    tokens: string;
    numThreads: number;
    provider: 'cpu';
    debug: number;
    modelType?: 'nemo_transducer';
    modelingUnit?: 'bpe';
    bpeVocab?: string;
  };
  decodingMethod: 'greedy_search' | 'modified_beam_search';
  maxActivePaths?: number;
  hotwordsFile?: string;
  hotwordsScore?: number;
}

/** Spoken-language identification config (Whisper encoder/decoder), for SpokenLanguageIdentification. */
export interface SherpaLanguageIdConfig {
  whisper: { encoder: string; decoder: string };
  numThreads: number;
  provider: 'cpu';
  debug: number;
}

export interface BuildSherpaConfigInput {
  model: CatalogModel;
  /** The model's folder, `MODELS_DIR/<name>`. */
  directory: string;
  efficiency: Efficiency | null;
  /** Spec 2.5 code the model must recognise, or null to let it detect (or use its default). */
  language: string | null;
  /** Threads ONNX Runtime may use for this recognition (at least 1). */
  maxThreads: number;
  /** Transducers only: hotwords file (formatHotwordsFile) and a bpe.vocab (deriveBpeVocab), or null. */
  hotwords?: { file: string; bpeVocab: string; score: number } | null;
  /**
   * Ask Whisper for token times (`enableTokenTimestamps: 1`; default false, e.g. for a load probe).
   * sherpa-onnx-node reads flags as numbers: `true` is silently ignored.
   */
  tokenTimestamps?: boolean;
  /** Whisper only: `translate` gives English text whatever the language spoken (default `transcribe`). */
  task?: 'transcribe' | 'translate';
}

/** Beam width of modified_beam_search per efficiency (transducers); greedy_search otherwise. */
const BEAM_PATHS: Record<Efficiency, number> = { fast: 2, balanced: 4, accurate: 8 };

/**
 * How a family decodes at an efficiency. Transducers: `accurate`, or any request with hotwords
 * (boosting needs it), uses modified_beam_search with 2 / 4 / 8 active paths for fast / balanced
 * (or null) / accurate; otherwise greedy_search. The other families only have greedy_search in
 * sherpa-onnx 1.13 (Whisper included: no beam search there).
 */
export function chooseDecoding(
  model: CatalogModel,
  efficiency: Efficiency | null,
  hasHotwords: boolean,
): Pick<SherpaRecognizerConfig, 'decodingMethod' | 'maxActivePaths'> {
  if (model.family !== 'nemo-transducer') return { decodingMethod: 'greedy_search' };
  const level = efficiency ?? 'balanced';
  if (level !== 'accurate' && !hasHotwords) return { decodingMethod: 'greedy_search' };
  return { decodingMethod: 'modified_beam_search', maxActivePaths: BEAM_PATHS[level] };
}

/**
 * The recognizer config for one recognition, a pure function of its input (no file access).
 * Whisper gets the language (or '' for English-only models, which take none) and its task,
 * `transcribe` or `translate` (and `enableTokenTimestamps: 1` with `tokenTimestamps`); SenseVoice its language or `auto` and inverse text normalisation; Canary srcLang =
 * tgtLang (transcription, not translation; `en` when null) with punctuation; NeMo transducers
 * `modelType: nemo_transducer`, plus `modelingUnit: bpe`, the bpe.vocab and the hotwords file when
 * hotwords are given; streaming NeMo CTC `nemoCtc`, the streaming Zipformer `transducer` (both for
 * sherpa-onnx's OnlineRecognizer, greedy search). numThreads is `maxThreads` at every efficiency (see docs/recognition.md).
 */
export function buildSherpaConfig(input: BuildSherpaConfigInput): SherpaRecognizerConfig {
  const { model, language } = input;
  const file = (role: ModelFileRole) => path.join(input.directory, model.files[role] ?? '');
  const hotwords = model.family === 'nemo-transducer' ? (input.hotwords ?? null) : null;
  const config: SherpaRecognizerConfig = {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { tokens: file('tokens'), numThreads: Math.max(1, Math.floor(input.maxThreads)), provider: 'cpu', debug: 0 },
    ...chooseDecoding(model, input.efficiency, hotwords !== null),
  };
  const modelConfig = config.modelConfig;
  if (model.family === 'whisper') {
    const whisperLanguage = model.detectsLanguage ? (language ?? '') : '';
    modelConfig.whisper = {
      encoder: file('encoder'),
      decoder: file('decoder'),
      language: whisperLanguage,
      task: input.task ?? 'transcribe',
    };
    if (input.tokenTimestamps) modelConfig.whisper.enableTokenTimestamps = 1;
  } else if (model.family === 'sense-voice') {
    modelConfig.senseVoice = { model: file('model'), language: language ?? 'auto', useInverseTextNormalization: 1 };
  } else if (model.family === 'nemo-canary') {
    const code = language ?? 'en';
    modelConfig.canary = { encoder: file('encoder'), decoder: file('decoder'), srcLang: code, tgtLang: code, usePnc: 1 };
  } else if (model.family === 'moonshine') {
    modelConfig.moonshine = {
      preprocessor: file('preprocessor'),
      encoder: file('encoder'),
      uncachedDecoder: file('uncachedDecoder'),
      cachedDecoder: file('cachedDecoder'),
    };
  } else if (model.family === 'nemo-ctc-streaming') {
    modelConfig.nemoCtc = { model: file('model') };
  } else if (model.family === 'zipformer-transducer-streaming') {
    // OnlineRecognizer: the encoder's `model_type` metadata (zipformer2) tells sherpa-onnx the kind.
    modelConfig.transducer = { encoder: file('encoder'), decoder: file('decoder'), joiner: file('joiner') };
  } else {
    modelConfig.transducer = { encoder: file('encoder'), decoder: file('decoder'), joiner: file('joiner') };
    modelConfig.modelType = 'nemo_transducer';
    if (hotwords) {
      Object.assign(modelConfig, { modelingUnit: 'bpe', bpeVocab: hotwords.bpeVocab });
      Object.assign(config, { hotwordsFile: hotwords.file, hotwordsScore: hotwords.score });
    }
  }
  return config;
}

/** Whisper's language identification for multilingual Whisper models, else null. */
export function buildLanguageIdConfig(model: CatalogModel, directory: string, maxThreads: number): SherpaLanguageIdConfig | null {
  if (model.family !== 'whisper' || !model.detectsLanguage) return null;
  const file = (role: ModelFileRole) => path.join(directory, model.files[role] ?? '');
  return {
    whisper: { encoder: file('encoder'), decoder: file('decoder') },
    numThreads: Math.max(1, Math.floor(maxThreads)),
    provider: 'cpu',
    debug: 0,
  };
}

/**
 * A bpe.vocab for hotword encoding derived from tokens.txt (`<piece> <id>` lines): every piece with
 * the same score, which makes sherpa-onnx's encoder split words by longest match. This is how
 * k2-fsa's own NeMo-transducer hotwords example does it: the Parakeet archives ship no bpe.vocab.
 */
export function deriveBpeVocab(tokensText: string): string {
  const pieces = tokensText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return pieces.map((line) => `${line.split(' ')[0]}\t-1.0`).join('\n') + '\n';
}

/**
 * The hotwords file: one phrase per line as given (words, not tokens: `modelingUnit: bpe`).
 * Blank phrases are dropped; `/`, line breaks (phrase separators to sherpa-onnx) and ` :` (its
 * per-phrase score marker) become spaces.
 * @returns the file text, or null when no phrase is left.
 */
export function formatHotwordsFile(hotwords: readonly string[]): string | null {
  const phrases = hotwords
    .map((word) =>
      word
        .replace(/[/\r\n]+|\s:/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((word) => word !== '');
  return phrases.length === 0 ? null : `${phrases.join('\n')}\n`;
}
