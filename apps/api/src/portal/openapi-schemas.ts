import { buildLegacyInputJsonSchema, buildPredictionInputJsonSchema } from '@transcribe/core';

type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const timestamp: Schema = { type: ['string', 'null'], format: 'date-time' };

/**
 * Spec 2.2: the `input` object of model `service/transcribe`, generated from the zod schema that
 * parses it (core contract/validation/prediction-input-schema.ts), so the document and the 422
 * rules cannot drift apart.
 */
const predictionInput: Schema = buildPredictionInputJsonSchema();

const prediction: Schema = {
  type: 'object',
  required: ['id', 'model', 'version', 'status', 'urls'],
  properties: {
    id: { type: 'string', pattern: '^[a-z2-7]{26}$' },
    model: { type: 'string', const: 'service/transcribe' },
    version: { type: 'string', description: 'Always "" (spec 2.1: may be empty).' },
    status: {
      type: 'string',
      enum: ['starting', 'processing', 'succeeded', 'failed', 'canceled'],
      description: 'starting only in the answer to a create with Prefer: wait that did not finish in time.',
    },
    input: { type: 'object', description: 'The spec 2.2 parameters as sent (a data: URI shortened).' },
    output: {
      description:
        'When succeeded: an object for json / json2, a string for text / srt / lrc, or {transcript, results} with post_process (spec 2.3). Null otherwise.',
    },
    error: { type: ['string', 'null'] },
    error_code: {
      type: ['string', 'null'],
      description: 'Machine-readable reason when failed (e.g. cache_changed, media_unreadable, upstream_unreachable), else null.',
    },
    logs: { type: 'string', description: 'Progress lines (downloaded …, VAD: …, recognized 40%, …).' },
    metrics: {
      type: 'object',
      properties: { predict_time: { type: 'number' }, total_time: { type: 'number' }, audio_duration: { type: 'number' } },
    },
    created_at: timestamp,
    started_at: timestamp,
    completed_at: timestamp,
    urls: { type: 'object', properties: { get: { type: 'string', format: 'uri' }, cancel: { type: 'string', format: 'uri' } } },
    data_removed: { type: 'boolean' },
    queue: { $ref: '#/components/schemas/QueuePlace' },
  },
};

/** The `queue` member of an unfinished prediction: an extension of the Replicate object, which its clients ignore. */
const queuePlace: Schema = {
  type: 'object',
  description:
    'Only on an unfinished prediction (an extension; Replicate clients ignore it): its place in the fair queue across keys and the estimated start and end, from the measured speed of the engine on this deployment (docs/api.md "Queue").',
  required: ['position', 'ahead_audio_seconds', 'estimated_start_at', 'estimated_completed_at'],
  properties: {
    position: { type: 'integer', minimum: 0, description: 'Waiting recordings a worker takes before this one (0: next, or running).' },
    ahead_audio_seconds: {
      type: 'number',
      minimum: 0,
      description: 'Seconds of audio of those recordings (not yet probed: their expected length).',
    },
    estimated_start_at: {
      type: 'string',
      format: 'date-time',
      description: 'When a worker is expected to take it (running: when it did).',
    },
    estimated_completed_at: { type: 'string', format: 'date-time', description: 'When it is expected to end.' },
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
  QueuePlace: queuePlace,
  KeyQueue: {
    type: 'object',
    properties: {
      waiting: { type: 'integer', description: 'The key’s predictions waiting for a worker.' },
      running: { type: 'integer', description: 'The key’s predictions a worker runs.' },
      predictions: {
        type: 'array',
        description: 'Running first, then waiting in the fair order.',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            status: { type: 'string', enum: ['waiting', 'running'] },
            created_at: { type: 'string', format: 'date-time' },
            queue: { $ref: '#/components/schemas/QueuePlace' },
            urls: { type: 'object', properties: { get: { type: 'string', format: 'uri' }, cancel: { type: 'string', format: 'uri' } } },
          },
        },
      },
    },
  },
  CreatePrediction: {
    type: 'object',
    required: ['input'],
    properties: { input: { $ref: '#/components/schemas/PredictionInput' }, ...webhookMembers },
  },
  CreatePredictionByVersion: {
    type: 'object',
    required: ['version', 'input'],
    properties: {
      version: { type: 'string', const: 'service/transcribe' },
      input: { $ref: '#/components/schemas/PredictionInput' },
      ...webhookMembers,
    },
  },
  MultipartCreate: {
    type: 'object',
    description:
      'Part input.audio holds the file (or a link as text); other parts are input.<name> (a JSON list or one part per item for post_process).',
    properties: {
      'input.audio': { type: 'string', contentMediaType: 'application/octet-stream' },
      'input.output_format': { type: 'string' },
      'input.post_process': { type: 'string' },
    },
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
      input: buildLegacyInputJsonSchema(),
    },
  },
  Problem: {
    type: 'object',
    description: 'RFC 7807 problem; detail is the text to show. cache_changed (409) also carries code.',
    required: ['title', 'detail', 'status'],
    properties: {
      title: { type: 'string' },
      detail: { type: 'string' },
      status: { type: 'integer' },
      code: { type: 'string', enum: ['cache_changed'] },
    },
  },
};
