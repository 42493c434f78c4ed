import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import { AppError, MAX_KNOWN_SPEAKERS, parseKnownSpeakers, type ServiceContext } from '@transcribe/core';
import { formFieldsToInput } from '../http/form-fields-to-input.ts';
import { contentTypeOf } from '../http/read-create-request.ts';
import { receiveForm, type LargeFields } from '../http/receive-form.ts';
import type { ReceivedFile } from '../http/receive-raw-body.ts';

/** `response_format` values of OpenAI's transcription and translation endpoints. */
export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** `timestamp_granularities[]` values of OpenAI's transcription endpoint. */
export const GRANULARITIES = ['segment', 'word'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/**
 * Form fields that become prediction parameters (spec 2.2), by OpenAI field name. `speakers` and
 * `hotwords` are service extensions under dotted names, which no OpenAI field has (OpenAI's are
 * snake_case identifiers), so they can never clash with a field OpenAI adds later.
 */
export const PREDICTION_FIELDS: Readonly<Record<string, string>> = {
  language: 'language',
  prompt: 'prompt',
  'service.speakers': 'speakers',
  'service.hotwords': 'hotwords',
};

/** Fields OpenAI defines that this service accepts and ignores (docs/openai-api.md). */
const IGNORED_FIELDS = new Set(['temperature', 'chunking_strategy', 'include[]', 'include', 'stream']); // stream: read by readStream

/** A read `POST /v1/audio/transcriptions` or `/v1/audio/translations` form. */
export interface AudioForm {
  /** The `file` part, saved under DATA_DIR/uploads; the caller owns (and removes) it. */
  file: ReceivedFile;
  /** `model` as sent, trimmed (the routes accept only the names GET /v1/models lists). */
  model: string;
  responseFormat: ResponseFormat;
  /** `timestamp_granularities[]`; `['segment']` when absent (OpenAI's default). */
  granularities: Granularity[];
  /**
   * `stream=true`: answer as server-sent events, text as each segment is recognised
   * (stream-transcription.ts). Only on transcriptions, with `response_format` json or text.
   */
  stream: boolean;
  /** Prediction parameters (`language`, `prompt`, `speakers`, `hotwords`) with their JSON types (formFieldsToInput). */
  rawInput: Record<string, unknown>;
  /** `known_speaker_names[]` paired with `known_speaker_references[]` (parseKnownSpeakers); [] when not sent. */
  knownSpeakers: { name: string; dataUrl: string }[];
}

/** The field names of OpenAI's known speakers, in both encodings the clients send (`key[]` parts, or the bare key). */
const KNOWN_SPEAKER_FIELDS = ['known_speaker_names[]', 'known_speaker_names', 'known_speaker_references[]', 'known_speaker_references'];

/**
 * `known_speaker_references[]` parts: OpenAI takes each as a `data:` URL of a 2–10 s clip, which the
 * official SDKs send as a text part (10 s of 48 kHz stereo 16-bit WAV is 1.9 MB, 2.6 MB in base64;
 * 8 MiB also holds a JSON-array part of several), at most MAX_KNOWN_SPEAKERS of them.
 */
const REFERENCE_PARTS: LargeFields = {
  names: ['known_speaker_references[]', 'known_speaker_references'],
  maxBytes: 8 * 1024 * 1024,
  maxCount: MAX_KNOWN_SPEAKERS,
};

/**
 * Reads the multipart form of OpenAI's audio endpoints (API reference, "Create transcription"):
 * the `file` part is streamed to disk with the 300 MiB limit (spec 8) checked while it arrives
 * (receiveForm), the other fields are checked here: `model` required, `response_format` one of
 * RESPONSE_FORMATS, `temperature` a number 0..1 (accepted and ignored: no engine samples),
 * `timestamp_granularities[]` of GRANULARITIES and only with `verbose_json` (OpenAI's rule),
 * `stream` `true` or `false`, true only where `allowed` has `stream` and with `json` or `text`;
 * `prompt` not with `diarized_json` (OpenAI's 400); `known_speaker_names[]` and
 * `known_speaker_references[]` (parseKnownSpeakers, where the endpoint takes them); `chunking_strategy`
 * (`auto`, a JSON object string or bracket keys) accepted and ignored. `language`, `prompt`, `service.speakers` and `service.hotwords` are
 * passed on as prediction parameters and checked by the spec 2.2 validators in createPrediction.
 * @param allowed the fields this endpoint takes besides `file` and `model` (translations: no `language`
 *   and no timestamp granularities).
 * @throws AppError `invalid_input` (400 here) with `param` naming the field; `payload_too_large` (413);
 *   `unsupported_media_type` (400 here) for a body that is not multipart/form-data.
 */
export async function readAudioForm(ctx: ServiceContext, req: Request, allowed: ReadonlySet<string>): Promise<AudioForm> {
  const type = contentTypeOf(req);
  if (type !== 'multipart/form-data') {
    throw new AppError(
      'unsupported_media_type',
      `Send the recording as multipart/form-data with a "file" part; got ${type === '' ? 'no Content-Type' : type.slice(0, 60)}.`,
      { param: 'file' },
    );
  }
  const form = await receiveForm(req, {
    fileField: 'file',
    dir: join(ctx.config.dataDir, 'uploads'),
    maxBytes: ctx.config.maxMediaBytes,
    largeFields: allowed.has('known_speaker_names[]') ? REFERENCE_PARTS : undefined,
  });
  try {
    if (!form.file) throw invalid('file', 'file is required: send the recording as a multipart part named "file".');
    if (form.file.bytes === 0) throw invalid('file', 'The uploaded file is empty.');
    return { file: form.file, ...readFields(form.fields, allowed) };
  } catch (error) {
    if (form.file) await rm(form.file.path, { force: true });
    throw error;
  }
}

function readFields(fields: [string, string][], allowed: ReadonlySet<string>): Omit<AudioForm, 'file'> {
  const values = new Map<string, string[]>();
  for (const [name, value] of fields) values.set(name, [...(values.get(name) ?? []), value]);
  const one = (name: string): string | undefined => {
    const list = values.get(name);
    if (list && list.length > 1) throw invalid(name, `${name} is given more than once; send it once.`);
    return list?.[0];
  };
  const model = one('model')?.trim() ?? '';
  if (model === '') throw invalid('model', 'model is required, e.g. "whisper-1" (GET /v1/models lists the names).');
  const responseFormat = (one('response_format') ?? 'json') as ResponseFormat;
  if (!RESPONSE_FORMATS.includes(responseFormat)) {
    throw invalid(
      'response_format',
      `response_format must be one of ${RESPONSE_FORMATS.join(', ')}; got "${responseFormat.slice(0, 40)}".`,
    );
  }
  checkTemperature(one('temperature'));
  const stream = readStream(one('stream'), responseFormat, allowed);
  const granularities = readGranularities(
    values.get('timestamp_granularities[]') ?? values.get('timestamp_granularities') ?? [],
    responseFormat,
  );
  if (responseFormat === 'diarized_json' && values.has('prompt')) {
    throw invalid(
      'prompt',
      'Prompt is not supported for diarization models (response_format diarized_json), as on OpenAI; leave prompt out.',
    );
  }
  const knownSpeakers = allowed.has('known_speaker_names[]')
    ? parseKnownSpeakers(
        [...(values.get('known_speaker_names[]') ?? []), ...(values.get('known_speaker_names') ?? [])],
        [...(values.get('known_speaker_references[]') ?? []), ...(values.get('known_speaker_references') ?? [])],
      )
    : [];
  const entries: [string, string][] = [];
  for (const [name, list] of values) {
    if (name === 'model' || name === 'response_format' || IGNORED_FIELDS.has(name) || name.startsWith('timestamp_granularities')) continue;
    if (KNOWN_SPEAKER_FIELDS.includes(name)) continue;
    const param = PREDICTION_FIELDS[name];
    if (param === undefined || !allowed.has(name)) continue; // unknown fields are ignored, as OpenAI's SDKs may add some
    if (list.length > 1) throw invalid(name, `${name} is given more than once; send it once.`);
    entries.push([`input.${param}`, list[0] ?? '']);
  }
  return { model, responseFormat, granularities, stream, rawInput: formFieldsToInput(entries), knownSpeakers };
}

/** `stream` (OpenAI's SDKs send `true` or `false`): streaming only where the endpoint has it and for json/text, as on OpenAI. */
function readStream(value: string | undefined, format: ResponseFormat, allowed: ReadonlySet<string>): boolean {
  if (value === undefined || value === 'false') return false;
  if (value !== 'true') throw invalid('stream', `stream must be true or false; got "${value.slice(0, 40)}".`);
  if (!allowed.has('stream')) throw invalid('stream', 'stream is not supported on this endpoint; leave it out.');
  if (format !== 'json' && format !== 'text') {
    throw invalid('stream', `stream=true works with response_format json or text (as on OpenAI), not ${format}.`);
  }
  return true;
}

function checkTemperature(value: string | undefined): void {
  if (value === undefined) return;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw invalid('temperature', `temperature must be a number from 0 to 1; got "${value.slice(0, 40)}".`);
  }
}

function readGranularities(values: string[], format: ResponseFormat): Granularity[] {
  if (values.length === 0) return ['segment'];
  const list = values.flatMap((value) => value.split(',')).map((value) => value.trim());
  for (const value of list) {
    if (!GRANULARITIES.includes(value as Granularity)) {
      throw invalid('timestamp_granularities[]', `timestamp_granularities[] takes segment and word; got "${value.slice(0, 40)}".`);
    }
  }
  if (format !== 'verbose_json') {
    throw invalid('timestamp_granularities[]', 'timestamp_granularities[] needs response_format verbose_json (as on OpenAI).');
  }
  return [...new Set(list as Granularity[])];
}

function invalid(param: string, message: string): AppError {
  return new AppError('invalid_input', message, { param });
}
