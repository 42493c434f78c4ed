/**
 * The whole creation-input contract (spec 2.2, 4.5, 7, 8): turns the `input` member of a create
 * request into a PredictionInput, or refuses it with one `invalid_input` error (HTTP 422) before
 * any prediction is created, anything is downloaded or anything is charged.
 */
import type { PredictionInput } from './prediction-input.ts';
import { invalidInput, readParam } from './invalid-input.ts';
import { parseAudioParam } from './parse-audio-param.ts';
import { parseLanguageParam } from './parse-language-param.ts';
import { parseSpeakersParam } from './parse-speakers-param.ts';
import { parseOutputFormat } from './parse-output-format.ts';
import { parseDomain, parseEfficiency, parseMultilingual } from './parse-recognition-options.ts';
import { parseHotwords, parsePrompt } from './parse-hint-params.ts';
import { parseCutDuration, parseCutStart } from './parse-cut-params.ts';
import { parsePostProcess } from './parse-post-process.ts';
import { parseCustomPrompt } from './parse-custom-prompt.ts';
import { parseTargetLanguage } from './parse-target-language.ts';

export interface ParseInputOptions {
  /** Codes the configured recognition engine recognises (RecognitionEngine.languages), or 'any'. */
  recognitionLanguages: readonly string[] | 'any';
  /** Name of the configured recognition engine, for details. */
  engineName: string;
  /** Absolute URL of the service's language list (`{apiBaseUrl}/languages`), named in language details. */
  languageListUrl?: string | undefined;
  /** Whether the engine tells languages apart (RecognitionEngine.identifiesLanguages): `multilingual: true` needs it. */
  identifiesLanguages: boolean;
  /** Whether a language model is configured; post-processing needs one. */
  llmConfigured: boolean;
  /**
   * Set when the recording came as a file in the request itself (multipart `input.audio` part or
   * octet-stream body, spec 4.1): this value becomes `audio` as is and `input.audio` is not read.
   * Users cannot send such internal values (e.g. `upload:<name>`) through `input.audio`.
   */
  uploadedAudio?: string;
}

/**
 * Validates a creation `input` object.
 *
 * Rules are checked in this fixed order and the first broken one is reported: input is an object;
 * audio; language; speakers; output_format; domain; efficiency; multilingual; prompt; hotwords;
 * cut_start; cut_duration; post_process; a language model is configured when post_process is
 * non-empty; custom_prompt; target_language. Ignored parameters (batch_size, correction, debug,
 * spelling, stereo, enhance_asr, log_progress, auto_multilingual) and unknown members are
 * accepted, have no effect and are not copied. Only own members are read.
 *
 * @param raw the decoded `input` member (any JSON value, or undefined when missing).
 * @param options the configured engine and language model; `uploadedAudio` for in-request files.
 * @returns the validated input; see each parse-*.ts file for the accepted forms.
 * @throws AppError `invalid_input` with `param` set to the parameter concerned (`input` when the
 *   input itself is missing or not an object). Details never quote the input object.
 */
export function parsePredictionInput(raw: unknown, options: ParseInputOptions): PredictionInput {
  const input = requireInputObject(raw);
  const read = (name: string): unknown => readParam(input, name);
  const audio = options.uploadedAudio ?? parseAudioParam(read('audio'));
  const language = parseLanguageParam(read('language'), options);
  const speakers = parseSpeakersParam(read('speakers'));
  const output_format = parseOutputFormat(read('output_format'));
  const domain = parseDomain(read('domain'));
  const efficiency = parseEfficiency(read('efficiency'));
  const multilingual = parseMultilingual(read('multilingual'), options);
  const prompt = parsePrompt(read('prompt'));
  const hotwords = parseHotwords(read('hotwords'));
  parseCutStart(read('cut_start'));
  parseCutDuration(read('cut_duration'));
  const post_process = parsePostProcess(read('post_process'));
  requireLanguageModel(post_process, options.llmConfigured);
  const custom_prompt = parseCustomPrompt(read('custom_prompt'), post_process);
  const target_language = parseTargetLanguage(read('target_language'), post_process, options.languageListUrl);
  return {
    audio, language, speakers, output_format, domain, efficiency, multilingual, prompt, hotwords,
    post_process, custom_prompt, target_language,
  };
}

/**
 * Checks that `raw` is a JSON object (not null, not a list).
 * @throws AppError `invalid_input` (param `input`) otherwise; the detail names only the kind of value.
 */
export function requireInputObject(raw: unknown): Readonly<Record<string, unknown>> {
  if (raw === undefined || raw === null) {
    throw invalidInput('input', 'input is required: send an object with at least audio, for example {"input": {"audio": "https://example.com/talk.mp3"}}.');
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidInput('input', `input must be an object of parameters such as {"audio": "https://example.com/talk.mp3"}; got ${Array.isArray(raw) ? 'a list' : `a ${typeof raw}`}.`);
  }
  return raw as Readonly<Record<string, unknown>>;
}

function requireLanguageModel(types: readonly string[] | null, llmConfigured: boolean): void {
  if (types !== null && types.length > 0 && !llmConfigured) {
    throw invalidInput('post_process', 'post_process needs a language model, and none is configured on this server; leave post_process out or ask the operator to configure one.');
  }
}
