import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { AppError, isAppError } from '../../../../platform/errors/app-error.ts';
import { LANGUAGES } from '../../../../contract/spec/languages.ts';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import type { Domain, Efficiency } from '../../../../contract/validation/prediction-input.ts';
import { buildSherpaConfig, deriveBpeVocab, formatHotwordsFile } from './build-sherpa-config.ts';
import { assertSherpaModelMetadata } from './check-sherpa-model-metadata.ts';
import { assertModelReady, modelFixCommand } from '../../models/list-installed-models.ts';
import { isStreamingModel, type CatalogModel } from '../../models/model-catalog.ts';
import { planSherpaJob } from './plan-sherpa-job.ts';
import { planUtterances, type PlanUtterancesOptions } from '../../plan-utterances.ts';
import type { RecognitionEngine, RecognitionRequest, RecognizedSegment } from '../../recognition-engine.ts';
import { assertPcm16kMono, readWavLayout } from '../../../decode/read-wav-layout.ts';
import { runSherpaProcess, type SherpaJob } from './run-sherpa-process.ts';
import { normalizeSherpaLanguage, shapeSherpaResults } from './shape-sherpa-result.ts';
import { openSherpaLiveStream } from '../sherpa-onnx-streaming/open-sherpa-live-stream.ts';
import type { LiveStreamRequest } from '../../live-recognition-stream.ts';

export interface SherpaOnnxEngineOptions {
  /** MODELS_DIR. */
  modelsDir: string;
  /** The installed catalog models the engine may use; the first is the default. */
  models: readonly CatalogModel[];
  /** ONNX Runtime threads per recognition (default min(4, availableParallelism())). */
  maxThreads?: number;
  /** Timeout = 60 s + timeoutFactor × seconds of audio to decode (default 4). */
  timeoutFactor?: number;
  /** Seconds of speech Whisper's language identification listens to (default 30). */
  detectSeconds?: number;
  /** Boost per hotword token, transducers (default 1.5, sherpa-onnx's default). */
  hotwordsScore?: number;
  /** How VAD intervals become utterances (padding, merging; see plan-utterances.ts). */
  plan?: PlanUtterancesOptions;
}

/** The request with the spec 2.2 options this engine reads when the pipeline passes them. */
export interface SherpaRecognitionRequest extends RecognitionRequest {
  efficiency?: Efficiency | null;
  /** Accepted; sherpa-onnx has no domain setting, so it changes nothing. */
  domain?: Domain | null;
}

/**
 * Whisper hears at most 30 s at once (sherpa-onnx 1.13.8 decodes only the first 30 s of a longer
 * input, with a warning, and drops the rest); other families get the same bound (memory, latency).
 */
const MAX_UTTERANCE_SECONDS = 28;

function covers(model: CatalogModel, languages: readonly string[]): boolean {
  return languages.every((code) => model.languages.includes(code));
}

/**
 * The model for one request. Candidates: models that recognise `language`; with `language` null,
 * those covering every language of the default model (so a multilingual default never gives way
 * to an English-only model); with `language` null and `multilingual` true, only models that
 * identify languages (`detectsLanguage`: multilingual Whisper, SenseVoice), the first of them
 * standing for the default. `fast` takes the candidate with the fewest parameters, `accurate` the
 * most, `balanced` / null the default when it is a candidate, else the first candidate.
 * @throws AppError `invalid_input` (param `language`) when no model recognises `language`, (param
 *   `multilingual`) when `multilingual` needs a language-identifying model and none is installed.
 */
export function pickSherpaModel(
  models: readonly CatalogModel[],
  language: string | null,
  efficiency: Efficiency | null,
  multilingual = false,
): CatalogModel {
  const perUtterance = multilingual && language === null;
  const pool = perUtterance ? models.filter((model) => model.detectsLanguage) : models;
  if (pool.length === 0) {
    throw new AppError(
      'invalid_input',
      'multilingual true needs a sherpa-onnx model that identifies languages (multilingual Whisper or SenseVoice), and none is installed',
      { param: 'multilingual' },
    );
  }
  const fallback = pool[0];
  const candidates = pool.filter((model) =>
    language === null ? covers(model, fallback?.languages ?? []) : model.languages.includes(language),
  );
  if (candidates.length === 0) {
    throw new AppError('invalid_input', `The installed sherpa-onnx models do not recognise ${language}`, { param: 'language' });
  }
  const bySize = [...candidates].sort((a, b) => a.parametersMillions - b.parametersMillions);
  if (efficiency === 'fast') return bySize[0]!;
  if (efficiency === 'accurate') return bySize.at(-1)!;
  return candidates[0]!;
}

/** Merged utterances, none longer than MAX_UTTERANCE_SECONDS (longer ones cut into equal pieces). */
function planSherpaUtterances(request: RecognitionRequest, plan?: PlanUtterancesOptions): VadInterval[] {
  const merged = planUtterances(request.speech, request.durationSeconds, {
    ...plan,
    maxUtteranceSeconds: Math.min(plan?.maxUtteranceSeconds ?? 30, MAX_UTTERANCE_SECONDS),
  });
  return merged.flatMap((utterance) => {
    const pieces = Math.ceil((utterance.end - utterance.start) / MAX_UTTERANCE_SECONDS);
    const length = (utterance.end - utterance.start) / pieces;
    return Array.from({ length: pieces }, (_, i) => ({
      start: utterance.start + i * length,
      end: i === pieces - 1 ? utterance.end : utterance.start + (i + 1) * length,
    }));
  });
}

/** Writes the hotwords file and a bpe.vocab derived from tokens.txt into `folder`; null when none apply. */
async function prepareHotwords(model: CatalogModel, directory: string, hotwords: readonly string[], folder: string, score: number) {
  const text = model.family === 'nemo-transducer' ? formatHotwordsFile(hotwords) : null;
  if (text === null) return null;
  const tokens = await readFile(path.join(directory, model.files.tokens ?? 'tokens.txt'), 'utf8');
  const file = path.join(folder, 'hotwords.txt');
  const bpeVocab = path.join(folder, 'bpe.vocab');
  await writeFile(file, text);
  await writeFile(bpeVocab, deriveBpeVocab(tokens));
  return { file, bpeVocab, score };
}

function withDefaults(options: SherpaOnnxEngineOptions) {
  return {
    ...options,
    maxThreads: Math.max(1, options.maxThreads ?? Math.min(4, availableParallelism())),
    timeoutFactor: options.timeoutFactor ?? 4,
    detectSeconds: options.detectSeconds ?? 30,
    hotwordsScore: options.hotwordsScore ?? 1.5,
  };
}

/** Models that translate speech into English themselves: multilingual Whisper (its `translate` task). */
export function translatingModels(models: readonly CatalogModel[]): CatalogModel[] {
  return models.filter((model) => model.family === 'whisper' && model.detectsLanguage);
}

async function recognizeWithSherpa(
  options: ReturnType<typeof withDefaults>,
  request: SherpaRecognitionRequest,
): Promise<RecognizedSegment[]> {
  const translate = request.task === 'translate';
  const pool = translate ? translatingModels(options.models) : options.models;
  if (pool.length === 0)
    throw new AppError('invalid_input', 'Translation needs a multilingual Whisper model, and none is installed', { param: 'task' });
  const model = pickSherpaModel(pool, translate ? null : request.language, request.efficiency ?? null, request.multilingual ?? false);
  request.signal?.throwIfAborted();
  const utterances = planSherpaUtterances(request, options.plan);
  if (utterances.length === 0) return [];
  const { directory } = await assertModelReady(options.modelsDir, model.name);
  await assertSherpaModelMetadata(model, directory, request.language);
  const layout = await readWavLayout(request.wavPath);
  assertPcm16kMono(layout, request.wavPath);
  const scratch = await mkdtemp(path.join(tmpdir(), 'sherpa-hotwords-'));
  try {
    const hotwords = await prepareHotwords(model, directory, request.hotwords, scratch, options.hotwordsScore);
    const total = utterances.reduce((sum, u) => sum + u.end - u.start, 0);
    const job = planSherpaJob(request, {
      model,
      directory,
      layout,
      utterances,
      maxThreads: options.maxThreads,
      detectSeconds: options.detectSeconds,
      hotwords,
      tokenTimestamps: true,
    });
    let done = 0;
    let reported = 0;
    const output = await runSherpaProcess(job, {
      timeoutMs: 60_000 + options.timeoutFactor * total * 1000,
      signal: request.signal,
      // The last utterance reports exactly 1: a sum of seconds can end at 0.9999999999999999.
      onProgress: (seconds, result) => {
        done += seconds;
        if (result && request.onUtterance) {
          const segments = shapeSherpaResults([result], request.speech, translate ? 'en' : request.language);
          request.onUtterance({ index: reported, count: utterances.length, segments });
        }
        request.onProgress?.(++reported === utterances.length ? 1 : Math.min(1, done / total));
      },
    }).catch((error: unknown) => {
      throw isAppError(error, 'engine_unavailable') ? withReinstallHint(error, model.name) : error;
    });
    // Identified once: every segment gets it; else (null) each segment its utterance's `lang`.
    // Translated text is English whatever was spoken.
    const language = translate ? 'en' : (request.language ?? normalizeSherpaLanguage(output.identifiedLanguage ?? ''));
    return shapeSherpaResults(output.results, request.speech, language);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether the model a request picks is a transducer, the only family sherpa-onnx biases with hotwords. */
function usesHotwordsNatively(
  models: readonly CatalogModel[],
  request: Pick<RecognitionRequest, 'language' | 'efficiency' | 'multilingual'>,
): boolean {
  try {
    return (
      pickSherpaModel(models, request.language, request.efficiency ?? null, request.multilingual ?? false).family === 'nemo-transducer'
    );
  } catch {
    return false;
  }
}

/**
 * Offline recogniser on sherpa-onnx (k2-fsa) with the installed models of MODELS_DIR: Whisper,
 * SenseVoice, NeMo Parakeet (TDT transducer) and Canary, Moonshine. Each recognition runs in a
 * child process (run-sherpa-process.ts) over the VAD speech, merged into utterances of at most 28 s
 * (cut at VAD pauses; one longer stretch of speech into equal pieces), each decoded on its own and
 * shifted back by its start. Before the child starts, the model file's metadata is checked
 * (check-sherpa-model-metadata.ts): sherpa-onnx would end the process on a missing key. Whisper runs
 * with token times (`enableTokenTimestamps: 1`), so its words carry the model's times.
 * `efficiency` picks the model (pickSherpaModel) and the decoding (build-sherpa-config.ts);
 * `hotwords` boost transducers (modified_beam_search); `prompt` and `domain` are not used natively
 * (sherpa-onnx 1.13 has no initial prompt for Whisper and no domain setting): transcribe-recording.ts
 * applies `prompt` terms and `hotwords` afterwards as spelling hints (`nativeHints`).
 * With `language` null, multilingual Whisper identifies the language once, on the first 30 s of
 * speech; with `multilingual` true as well, it identifies the language of each utterance instead
 * (planSherpaJob) and every segment carries its utterance's language; SenseVoice reports it per
 * utterance either way. Streaming models (NeMo streaming CTC, streaming Zipformer) decode recordings
 * with sherpa-onnx's OnlineRecognizer, one utterance per stream, and give live sessions a stream that
 * grows each turn's text as its audio arrives (`openLiveStream`, engines/sherpa-onnx-streaming/). `identifiesLanguages` is true when an installed model identifies languages
 * (`detectsLanguage`); `multilingual: true` is refused before download otherwise.
 * @throws from recognize: AppError `invalid_input` (language no model recognises),
 *   `engine_unavailable` (model missing, damaged or failing to load: names the file or the
 *   reason and `npm run models -- download NAME`), `recognition_failed`, `media_unreadable`;
 *   `signal.reason` when aborted.
 */
export function createSherpaOnnxEngine(options: SherpaOnnxEngineOptions): RecognitionEngine {
  if (options.models.length === 0) throw new RangeError('createSherpaOnnxEngine needs at least one model');
  const settings = withDefaults(options);
  const known = new Set(options.models.flatMap((model) => model.languages));
  const languages = LANGUAGES.map((language) => language.code).filter((code) => known.has(code));
  return {
    name: 'sherpa-onnx',
    languages,
    defaultLanguage: languages.includes('en') ? 'en' : languages[0]!,
    identifiesLanguages: options.models.some((model) => model.detectsLanguage),
    translates: translatingModels(options.models).length > 0,
    nativeHints: (request) => ({ prompt: false, hotwords: usesHotwordsNatively(settings.models, request) }),
    recognize: (request) => recognizeWithSherpa(settings, request),
    openLiveStream: (request) => openLiveStreamOn(settings, request),
  };
}

/**
 * The live stream of one session: the first streaming model (isStreamingModel, in the order of the
 * engine's models) that recognises the session's language (any, when it is null), in one child
 * process of its own (openSherpaLiveStream); null when no installed model streams that language.
 */
function openLiveStreamOn(options: ReturnType<typeof withDefaults>, request: LiveStreamRequest) {
  const model = options.models.find(
    (candidate) => isStreamingModel(candidate) && (request.language === null || candidate.languages.includes(request.language)),
  );
  if (!model) return null;
  return openSherpaLiveStream({ model, directory: path.join(path.resolve(options.modelsDir), model.name), maxThreads: 1 });
}

/**
 * Start-up probe: checks the metadata sherpa-onnx needs (check-sherpa-model-metadata.ts), then loads
 * model `name` in a child process and decodes nothing, so a damaged or wrong model file fails at
 * start-up instead of at the first job (sherpa-onnx only notices on load).
 * @returns the model's catalog entry.
 * @throws AppError `engine_unavailable` naming the file or sherpa-onnx's reason and the fix command.
 */
export async function probeSherpaModel(
  modelsDir: string,
  name: string,
  options: { maxThreads?: number; timeoutMs?: number } = {},
): Promise<CatalogModel> {
  const { model, directory } = await assertModelReady(modelsDir, name);
  await assertSherpaModelMetadata(model, directory);
  const config = buildSherpaConfig({ model, directory, efficiency: null, language: null, maxThreads: options.maxThreads ?? 1 });
  const job: SherpaJob = {
    modelName: name,
    wavPath: '',
    dataOffset: 0,
    dataBytes: 0,
    sampleRate: 16000,
    utterances: [],
    config,
    languageId: null,
    detectSeconds: 0,
    probeOnly: true,
    online: isStreamingModel(model),
  };
  try {
    await runSherpaProcess(job, { timeoutMs: options.timeoutMs ?? 120_000 });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw withReinstallHint(error, name);
  }
  return model;
}

/** A model that failed to load (a damaged or truncated file): the error, with the command that reinstalls it. */
function withReinstallHint(error: AppError, name: string): AppError {
  return new AppError('engine_unavailable', `${error.message}; reinstall it with \`${modelFixCommand(name)}\``, { cause: error });
}
