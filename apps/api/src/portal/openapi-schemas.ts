import { DOMAINS, EFFICIENCIES, LANGUAGES, OUTPUT_FORMATS, POST_PROCESS_TYPE_NAMES } from '@transcribe/core';

type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const timestamp: Schema = { type: ['string', 'null'], format: 'date-time' };

/** Spec 2.2: the `input` object of model `service/transcribe`. */
const predictionInput: Schema = {
  type: 'object',
  description: 'Spec 2.2. Unknown members and the ignored parameters (batch_size, correction, debug, spelling, stereo, enhance_asr, log_progress, auto_multilingual) are accepted and have no effect.',
  required: ['audio'],
  properties: {
    audio: { type: 'string', format: 'uri', description: 'HTTP(S) link to one audio or video recording, a data: URI, or the urls.get of a file uploaded with POST /files.' },
    language: { type: ['string', 'null'], description: 'Recognition language: a code or English name of spec 2.5, or null / "auto" to detect.' },
    speakers: { type: ['integer', 'null'], minimum: 1, maximum: 32, description: 'Expected number of speakers.' },
    output_format: { type: 'string', enum: [...OUTPUT_FORMATS], default: 'json' },
    domain: { type: ['string', 'null'], enum: [...DOMAINS, null] },
    efficiency: { type: ['string', 'null'], enum: [...EFFICIENCIES, null] },
    multilingual: { type: ['boolean', 'null'] },
    prompt: { type: ['string', 'null'], description: 'Hint for transcript correction.' },
    hotwords: { type: ['string', 'null'], description: 'Comma-separated keywords for recognition.' },
    cut_start: { type: ['string', 'number', 'null'], description: 'Trimming is unsupported: only 0, "0.0", "", null or a zero time such as 0:00 (spec 2.2).' },
    cut_duration: { type: ['string', 'number', 'null'], description: 'Trimming is unsupported: only -1, "-1.0", "", null or a zero time (spec 2.2).' },
    post_process: {
      type: ['array', 'null'],
      maxItems: 8,
      uniqueItems: true,
      items: { type: 'string', enum: [...POST_PROCESS_TYPE_NAMES] },
      description: 'Post-processing types of spec 2.4. A list (even empty) changes output to {transcript, results} (spec 2.3.2).',
    },
    custom_prompt: { type: ['string', 'null'], minLength: 1, maxLength: 8192, description: 'Required when post_process contains custom.' },
    target_language: {
      type: ['string', 'null'],
      description: 'Required when post_process contains translation or translated_subtitles: a code or English name of spec 2.5.',
      examples: LANGUAGES.slice(0, 3).map((language) => language.code),
    },
  },
};

const prediction: Schema = {
  type: 'object',
  required: ['id', 'model', 'version', 'status', 'urls'],
  properties: {
    id: { type: 'string', pattern: '^[a-z2-7]{26}$' },
    model: { type: 'string', const: 'service/transcribe' },
    version: { type: 'string', description: 'Always "" (spec 2.1: may be empty).' },
    status: { type: 'string', enum: ['starting', 'processing', 'succeeded', 'failed', 'canceled'], description: 'starting only in the answer to a create with Prefer: wait that did not finish in time.' },
    input: { type: 'object', description: 'The spec 2.2 parameters as sent (a data: URI shortened).' },
    output: { description: 'When succeeded: an object for json / json2, a string for text / srt / lrc, or {transcript, results} with post_process (spec 2.3). Null otherwise.' },
    error: { type: ['string', 'null'] },
    error_code: { type: ['string', 'null'], description: 'Machine-readable reason when failed (e.g. cache_changed, media_unreadable, upstream_unreachable), else null.' },
    logs: { type: 'string', description: 'Progress lines (downloaded …, VAD: …, recognized 40%, …).' },
    metrics: { type: 'object', properties: { predict_time: { type: 'number' }, total_time: { type: 'number' }, audio_duration: { type: 'number' } } },
    created_at: timestamp,
    started_at: timestamp,
    completed_at: timestamp,
    urls: { type: 'object', properties: { get: { type: 'string', format: 'uri' }, cancel: { type: 'string', format: 'uri' } } },
    data_removed: { type: 'boolean' },
  },
};

const webhookMembers: Schema = {
  webhook: nullable({ type: 'string', format: 'uri', maxLength: 2048, description: 'HTTPS URL notified of status changes (spec 6).' }),
  webhook_events_filter: { type: ['array', 'null'], items: { type: 'string', enum: ['start', 'output', 'logs', 'completed'] } },
};

const file: Schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    content_type: { type: 'string' },
    size: { type: 'integer', description: 'Bytes.' },
    etag: { type: 'string' },
    checksums: { type: 'object', properties: { sha256: { type: 'string' } } },
    metadata: { type: 'object' },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time', description: 'Files are kept 24 hours.' },
    urls: { type: 'object', properties: { get: { type: 'string', format: 'uri', description: 'Pass this as input.audio.' } } },
  },
};

const page = (item: string): Schema => ({
  type: 'object',
  properties: {
    results: { type: 'array', items: { $ref: `#/components/schemas/${item}` } },
    next: { type: ['string', 'null'], format: 'uri' },
    previous: { type: ['string', 'null'], format: 'uri' },
  },
});

/** The `components.schemas` of the OpenAPI document. */
export const OPENAPI_SCHEMAS: Record<string, Schema> = {
  PredictionInput: predictionInput,
  Prediction: prediction,
  PredictionList: page('Prediction'),
  CreatePrediction: { type: 'object', required: ['input'], properties: { input: { $ref: '#/components/schemas/PredictionInput' }, ...webhookMembers } },
  CreatePredictionByVersion: {
    type: 'object',
    required: ['version', 'input'],
    properties: { version: { type: 'string', const: 'service/transcribe' }, input: { $ref: '#/components/schemas/PredictionInput' }, ...webhookMembers },
  },
  MultipartCreate: {
    type: 'object',
    description: 'Part input.audio holds the file (or a link as text); other parts are input.<name> (a JSON list or one part per item for post_process).',
    properties: { 'input.audio': { type: 'string', contentMediaType: 'application/octet-stream' }, 'input.output_format': { type: 'string' }, 'input.post_process': { type: 'string' } },
    required: ['input.audio'],
  },
  File: file,
  FileList: page('File'),
  Account: {
    type: 'object',
    properties: {
      type: { type: 'string', const: 'user' },
      key: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' }, prefix: { type: 'string' } } },
      usage: { type: 'object', description: 'Usage in the free-repeat window (docs/caching-and-billing.md).' },
    },
  },
  WebhookSecret: { type: 'object', properties: { key: { type: 'string', pattern: '^whsec_' } } },
  LegacyCreate: {
    type: 'object',
    required: ['input'],
    properties: {
      version: { type: 'string', enum: ['transcribe', 'service/transcribe'] },
      input: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' }, output_format: { type: 'string', enum: ['text', 'json_verbose', 'txt_file_url'], default: 'text' } } },
    },
  },
  Problem: {
    type: 'object',
    description: 'RFC 7807 problem; detail is the text to show. cache_changed (409) also carries code.',
    required: ['title', 'detail', 'status'],
    properties: { title: { type: 'string' }, detail: { type: 'string' }, status: { type: 'integer' }, code: { type: 'string', enum: ['cache_changed'] } },
  },
};
