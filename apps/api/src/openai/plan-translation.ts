import { AppError, type ServiceContext, type Transcript } from '@transcribe/core';
import type { ResponseFormat } from './read-audio-form.ts';
import { answerOfTranscript, segmentsOfSrt, type AudioAnswer } from './render-audio-response.ts';

/**
 * How a translation's answer is made: by the engine itself (`task: 'translate'`, Whisper's
 * translation), or by the language model's post-processing (spec 2.4 types, target English).
 */
export type TranslationPlan =
  | { by: 'engine'; task: 'translate' }
  | { by: 'language-model'; post_process: ['translation'] | ['translated_subtitles']; target_language: 'en' };

/**
 * How `POST /v1/audio/translations` (speech → English text) is done here: by the engine's own
 * translation when it has one (RecognitionEngine.translates: sherpa-onnx with a multilingual Whisper
 * model, its `translate` task), as OpenAI's endpoint does; otherwise the transcript is translated
 * by the configured language model with the post-processing of spec 2.4: `translation` for `json`
 * and `text` (one text), `translated_subtitles` for `srt`, `vtt` and `verbose_json` (the SRT cues
 * with their times, each cue translated).
 * @throws AppError `invalid_input` (400 on this API, param `model`) when the engine does not
 *   translate and no language model is configured.
 */
export function planTranslation(ctx: ServiceContext, format: ResponseFormat): TranslationPlan {
  if (ctx.engine.translates) return { by: 'engine', task: 'translate' };
  if (!ctx.config.llmConfigured) {
    throw new AppError(
      'invalid_input',
      'Translation is not available on this server: its recognition engine does not translate and no language model is configured (LLM_BASE_URL). Use POST /v1/audio/transcriptions, or ask the operator to configure a language model.',
      { param: 'model' },
    );
  }
  const subtitles = format === 'srt' || format === 'vtt' || format === 'verbose_json';
  return { by: 'language-model', post_process: subtitles ? ['translated_subtitles'] : ['translation'], target_language: 'en' };
}

/**
 * The answer of a finished translation: the engine's English transcript as it is, or the
 * `translation` result as the text, or the
 * `translated_subtitles` SRT as the timed segments (and their text); language `en`, the recording's
 * duration from the transcript.
 * @throws AppError `internal` when the prediction holds no result of the planned type.
 */
export function answerOfTranslation(transcript: Transcript, results: unknown, plan: TranslationPlan): AudioAnswer {
  if (plan.by === 'engine') return { ...answerOfTranscript(transcript), task: 'translate', language: 'en' };
  const type = plan.post_process[0];
  const value = typeof results === 'object' && results !== null ? (results as Record<string, unknown>)[type] : undefined;
  if (typeof value !== 'string') throw new AppError('internal', `The translation finished without its ${type} result.`);
  const base = { task: 'translate' as const, language: 'en', duration: transcript.source.length };
  if (type === 'translation') {
    const text = value.replace(/\s*\n\s*/g, ' ').trim();
    return { ...base, segments: [], text, srt: '' };
  }
  return { ...base, segments: segmentsOfSrt(value), srt: value };
}
