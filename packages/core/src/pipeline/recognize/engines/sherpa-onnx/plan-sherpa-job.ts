import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { buildLanguageIdConfig, buildSherpaConfig } from './build-sherpa-config.ts';
import { isStreamingModel, type CatalogModel } from '../../models/model-catalog.ts';
import type { RecognitionRequest } from '../../recognition-engine.ts';
import type { WavLayout } from '../../../decode/read-wav-layout.ts';
import type { SherpaJob } from './run-sherpa-process.ts';

/** What one sherpa-onnx recognition decodes, besides the request. */
export interface SherpaJobInput {
  /** The model pickSherpaModel chose and its folder `MODELS_DIR/<name>`. */
  model: CatalogModel;
  directory: string;
  /** Layout of the request's 16 kHz mono WAV file (readWavLayout). */
  layout: Pick<WavLayout, 'dataOffset' | 'dataBytes' | 'sampleRate'>;
  /** Stretches to decode, seconds (at most 28 s each). */
  utterances: VadInterval[];
  maxThreads: number;
  /** Seconds of speech a one-off language identification listens to. */
  detectSeconds: number;
  /** Transducers only: the hotwords file and its bpe.vocab, or null. */
  hotwords: { file: string; bpeVocab: string; score: number } | null;
  /**
   * Ask Whisper for token times (`enableTokenTimestamps: 1`), so its words get the model's times
   * instead of an even spread over the speech (default false).
   */
  tokenTimestamps?: boolean;
}

/**
 * How a request without `language` learns it on multilingual Whisper: `once` (default) runs
 * sherpa-onnx's SpokenLanguageIdentification on the first `detectSeconds` of speech and decodes every
 * utterance in that language; `per-utterance` (spec 2.2 `multilingual: true`) leaves the
 * Whisper language empty, so sherpa-onnx identifies the language of each utterance from that
 * utterance's own encoder output, decodes it in that language and reports it as the result's `lang`
 * (its OfflineWhisperGreedySearchDecoder). `none`: a language was requested, or the model is not
 * multilingual Whisper (SenseVoice reports `<|xx|>` per utterance by itself; the others cannot tell).
 */
export function whisperLanguageIdentification(
  model: CatalogModel,
  request: Pick<RecognitionRequest, 'language' | 'multilingual'>,
): 'none' | 'once' | 'per-utterance' {
  if (request.language !== null || model.family !== 'whisper' || !model.detectsLanguage) return 'none';
  return request.multilingual === true ? 'per-utterance' : 'once';
}

/**
 * The job of one recognition for the sherpa-onnx child process (sherpa-onnx-recognize.process.cjs):
 * the recognizer config (buildSherpaConfig with the request's language, or none to detect, and
 * Whisper's token times when `tokenTimestamps`) and,
 * only for whisperLanguageIdentification `once`, the language-identification config.
 * A pure function of its input: no file is read.
 */
export function planSherpaJob(
  request: Pick<RecognitionRequest, 'wavPath' | 'language' | 'multilingual' | 'efficiency' | 'task'>,
  input: SherpaJobInput,
): SherpaJob {
  const { model, directory, layout } = input;
  const identification = whisperLanguageIdentification(model, request);
  return {
    modelName: model.name,
    wavPath: request.wavPath,
    dataOffset: layout.dataOffset,
    dataBytes: layout.dataBytes,
    sampleRate: layout.sampleRate,
    utterances: input.utterances,
    config: buildSherpaConfig({
      model,
      directory,
      efficiency: request.efficiency ?? null,
      language: request.language,
      maxThreads: input.maxThreads,
      hotwords: input.hotwords,
      tokenTimestamps: input.tokenTimestamps ?? false,
      task: request.task ?? 'transcribe',
    }),
    languageId: identification === 'once' ? buildLanguageIdConfig(model, directory, input.maxThreads) : null,
    detectSeconds: input.detectSeconds,
    probeOnly: false,
    online: isStreamingModel(model),
  };
}
