import { LANGUAGES } from '../../../contract/spec/languages.ts';

/**
 * The model families of sherpa-onnx that the local engine runs; each maps to one `modelConfig`
 * member of sherpa-onnx's OfflineRecognizer, or for the streaming families (STREAMING_FAMILIES) of
 * its OnlineRecognizer (build-sherpa-config.ts).
 */
export type ModelFamily =
  | 'whisper'
  | 'sense-voice'
  | 'nemo-transducer'
  | 'nemo-canary'
  | 'moonshine'
  | 'nemo-ctc-streaming'
  | 'zipformer-transducer-streaming';

/**
 * Families decoded by sherpa-onnx's OnlineRecognizer (streaming: text grows as audio arrives; live
 * sessions use them through engines/sherpa-onnx-streaming/, docs/live.md). Recordings are decoded
 * with them too, one utterance at a time.
 */
export const STREAMING_FAMILIES: ReadonlySet<ModelFamily> = new Set(['nemo-ctc-streaming', 'zipformer-transducer-streaming']);

/** Whether `model` is a streaming model (OnlineRecognizer). */
export function isStreamingModel(model: Pick<CatalogModel, 'family'>): boolean {
  return STREAMING_FAMILIES.has(model.family);
}

/** The files a family needs, by the role they play in the recognizer config. */
export const FAMILY_FILE_ROLES = {
  whisper: ['encoder', 'decoder', 'tokens'],
  'sense-voice': ['model', 'tokens'],
  'nemo-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'nemo-canary': ['encoder', 'decoder', 'tokens'],
  moonshine: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
  'nemo-ctc-streaming': ['model', 'tokens'],
  'zipformer-transducer-streaming': ['encoder', 'decoder', 'joiner', 'tokens'],
} as const satisfies Record<ModelFamily, readonly string[]>;

export type ModelFileRole = (typeof FAMILY_FILE_ROLES)[ModelFamily][number];

/** One downloadable model of the k2-fsa `asr-models` release. */
export interface CatalogModel {
  /** Archive name without `.tar.bz2`; also the folder it unpacks to inside MODELS_DIR. */
  readonly name: string;
  readonly family: ModelFamily;
  /** Spec 2.5 codes the model recognises. */
  readonly languages: readonly string[];
  /** True when the model finds the language itself (`language: null` works without a default). */
  readonly detectsLanguage: boolean;
  /** Millions of parameters: how `efficiency` ranks models (fast = fewest, accurate = most). */
  readonly parametersMillions: number;
  /** Official release asset. */
  readonly archiveUrl: string;
  /**
   * SHA-256 of the archive as 64 lowercase hex digits where an official source publishes one, else
   * null. k2-fsa's asr-models release publishes no checksums for these archives, so every entry is
   * null today and verification works like a lockfile: the first install pins the archive's hash
   * in `MODELS_DIR/models.lock.json`, every later install (here or on a machine given that file)
   * must match it (models-install/models-lock.ts); `--sha256 HEX` pins one up front.
   */
  readonly sha256: string | null;
  /** File names inside the model folder, by role (see FAMILY_FILE_ROLES). */
  readonly files: Readonly<Partial<Record<ModelFileRole, string>>>;
  readonly description: string;
}

/** Where k2-fsa publishes the models: github.com/k2-fsa/sherpa-onnx/releases/tag/asr-models. */
export const ASR_MODELS_RELEASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/';

/** The 99 languages of multilingual Whisper: spec 2.5 minus Cantonese (only large-v3 has `yue`). */
const WHISPER_LANGUAGES = LANGUAGES.map((language) => language.code).filter((code) => code !== 'yue');
/** The 25 European languages of Parakeet TDT 0.6B v3 (NVIDIA model card). */
const PARAKEET_V3_LANGUAGES = [
  'bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'it',
  'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv', 'ru', 'uk',
];

type Entry = Omit<CatalogModel, 'archiveUrl' | 'sha256'>;

function whisper(size: string, parametersMillions: number, english: boolean): Entry {
  const prefix = english ? `${size}.en` : size;
  return {
    name: `sherpa-onnx-whisper-${prefix}`,
    family: 'whisper',
    languages: english ? ['en'] : WHISPER_LANGUAGES,
    detectsLanguage: !english,
    parametersMillions,
    files: { encoder: `${prefix}-encoder.int8.onnx`, decoder: `${prefix}-decoder.int8.onnx`, tokens: `${prefix}-tokens.txt` },
    description: `OpenAI Whisper ${prefix} (int8)${english ? ', English only' : ', 99 languages, language identification'}`,
  };
}

const MOONSHINE_FILES = {
  preprocessor: 'preprocess.onnx',
  encoder: 'encode.int8.onnx',
  uncachedDecoder: 'uncached_decode.int8.onnx',
  cachedDecoder: 'cached_decode.int8.onnx',
  tokens: 'tokens.txt',
};
/** The files of k2-fsa's streaming NeMo FastConformer CTC exports (one cache-aware model). */
const NEMO_STREAMING_CTC_FILES = { model: 'model.int8.onnx', tokens: 'tokens.txt' };

/**
 * A k2-fsa export of NVIDIA's stt_en_fastconformer_hybrid_large_streaming_multi (the CTC head,
 * cache-aware streaming, ~114M parameters per NVIDIA's model card) at one of its chunk sizes; the
 * int8 archives are about 99-103 MB (the 80 ms one 99,459,493 bytes).
 */
function nemoStreamingCtc(chunkMs: number): Entry {
  return {
    name: `sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-${chunkMs}ms-int8`,
    family: 'nemo-ctc-streaming',
    languages: ['en'],
    detectsLanguage: false,
    parametersMillions: 114,
    files: NEMO_STREAMING_CTC_FILES,
    description: `NVIDIA FastConformer hybrid large streaming (CTC, int8), English, ${chunkMs} ms chunks: live text as you speak`,
  };
}

const TRANSDUCER_FILES = { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' };

const ENTRIES: readonly Entry[] = [
  whisper('base', 74, false),
  whisper('small', 244, false),
  whisper('tiny', 39, false),
  whisper('base', 74, true),
  whisper('tiny', 39, true),
  {
    name: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17',
    family: 'sense-voice',
    languages: ['zh', 'en', 'ja', 'ko', 'yue'],
    detectsLanguage: true,
    parametersMillions: 234,
    files: { model: 'model.int8.onnx', tokens: 'tokens.txt' },
    description: 'FunAudioLLM SenseVoice Small (int8): Chinese, English, Japanese, Korean, Cantonese; punctuation',
  },
  {
    name: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
    family: 'nemo-transducer',
    languages: ['en'],
    detectsLanguage: false,
    parametersMillions: 600,
    files: TRANSDUCER_FILES,
    description: 'NVIDIA Parakeet TDT 0.6B v2 (int8), English; punctuation, hotword boosting',
  },
  {
    name: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8',
    family: 'nemo-transducer',
    languages: PARAKEET_V3_LANGUAGES,
    detectsLanguage: false,
    parametersMillions: 600,
    files: TRANSDUCER_FILES,
    description: 'NVIDIA Parakeet TDT 0.6B v3 (int8), 25 European languages (no language label); hotword boosting',
  },
  {
    name: 'sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8',
    family: 'nemo-canary',
    languages: ['en', 'es', 'de', 'fr'],
    detectsLanguage: false,
    parametersMillions: 180,
    files: { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', tokens: 'tokens.txt' },
    description: 'NVIDIA Canary 180M Flash (int8): English, Spanish, German, French; punctuation',
  },
  {
    name: 'sherpa-onnx-moonshine-base-en-int8',
    family: 'moonshine',
    languages: ['en'],
    detectsLanguage: false,
    parametersMillions: 61,
    files: MOONSHINE_FILES,
    description: 'Useful Sensors Moonshine base (int8), English',
  },
  {
    name: 'sherpa-onnx-moonshine-tiny-en-int8',
    family: 'moonshine',
    languages: ['en'],
    detectsLanguage: false,
    parametersMillions: 27,
    files: MOONSHINE_FILES,
    description: 'Useful Sensors Moonshine tiny (int8), English',
  },
  // Streaming models (OnlineRecognizer), last: a recording is decoded better by the offline ones above,
  // so they become the default only when nothing else is installed or SHERPA_MODEL names them.
  {
    name: 'sherpa-onnx-streaming-zipformer-en-2023-06-26',
    family: 'zipformer-transducer-streaming',
    languages: ['en'],
    detectsLanguage: false,
    parametersMillions: 70,
    files: {
      encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
      joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      tokens: 'tokens.txt',
    },
    description: 'icefall streaming Zipformer transducer (LibriSpeech, int8 encoder), English, 320 ms chunks: live text as you speak',
  },
  nemoStreamingCtc(80),
  nemoStreamingCtc(480),
  nemoStreamingCtc(1040),
];

/**
 * The models `npm run models -- download NAME` can install. Without SHERPA_MODEL the first installed
 * one in this order is the engine's default (select-recognition-engine.ts). No entry carries a
 * SHA-256, since upstream publishes none: see `sha256` for how archives are checked instead.
 */
export const MODEL_CATALOG: readonly CatalogModel[] = ENTRIES.map((entry) => ({
  ...entry,
  archiveUrl: `${ASR_MODELS_RELEASE_URL}${entry.name}.tar.bz2`,
  sha256: null,
}));

/** The catalog entry named `name` (exact match), or undefined. */
export function findCatalogModel(name: string): CatalogModel | undefined {
  return MODEL_CATALOG.find((model) => model.name === name);
}

/** The file names of `model`, in the order of FAMILY_FILE_ROLES (what an install must contain). */
export function listModelFiles(model: CatalogModel): string[] {
  return FAMILY_FILE_ROLES[model.family].map((role) => model.files[role as ModelFileRole] ?? '');
}
