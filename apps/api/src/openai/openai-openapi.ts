/**
 * The OpenAPI description of the OpenAI-compatible API (docs/openai-api.md), merged into
 * `/openapi.json` by apps/api/src/portal/openapi.ts under the tag OPENAI_TAG.
 */
import { buildPredictionInputJsonSchema } from '@transcribe/core';
import { GRANULARITIES, RESPONSE_FORMATS } from './read-audio-form.ts';

type Json = Record<string, unknown>;

const INPUT_PROPERTIES = buildPredictionInputJsonSchema().properties as Record<string, Json>;

/**
 * A form field that becomes the spec 2.2 parameter `name`: its type and limits from the input
 * schema generated from the zod rules that check it (createPrediction), without null.
 */
function inputField(name: string, description: string): Json {
  const { type, description: _inputDescription, ...limits } = INPUT_PROPERTIES[name]!;
  return { type: [type].flat().find((kind) => kind !== 'null'), ...limits, description };
}

/** The tag of these operations. */
export const OPENAI_TAG = {
  name: 'OpenAI-compatible',
  description: 'OpenAI’s speech-to-text API: set an OpenAI SDK’s base URL to {service}/v1 (docs/openai-api.md).',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ERRORS: Record<string, string> = {
  '400': 'A field breaks a rule (error.param names it), or translation is not available.',
  '401': 'Missing or invalid API key (code invalid_api_key).',
  '404': 'No such model.',
  '413': 'The file is over 300 MiB; refused while it streams.',
  '422': 'The file is not a readable recording or has no audio.',
  '429': 'Too many requests with this key; see Retry-After.',
  '500': 'Recognition or the language model failed.',
  '503': 'The queue or a remote engine is unavailable; try again shortly.',
};
const errors = (...statuses: string[]): Json =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: ERRORS[status], content: { 'application/json': { schema: ref('OpenAiError') } } }]),
  );

const AUDIO_ANSWERS = {
  '200': {
    description: 'json: {text}; verbose_json: the verbose transcription; text, srt and vtt as text/plain.',
    content: {
      'application/json': { schema: { oneOf: [ref('OpenAiTranscription'), ref('OpenAiVerboseTranscription')] } },
      'text/plain': { schema: { type: 'string' } },
    },
  },
  ...errors('400', '401', '413', '422', '429', '500', '503'),
};

/** The transcription answers, with the server-sent events of `stream=true` (stream-transcription.ts). */
const TRANSCRIPTION_ANSWERS = {
  ...AUDIO_ANSWERS,
  '200': {
    ...AUDIO_ANSWERS['200'],
    description: `${AUDIO_ANSWERS['200'].description} With stream=true: text/event-stream, one \`data: {"type":"transcript.text.delta","delta":…}\` frame per segment as it is recognised, then \`transcript.text.done\` {text, usage {type: duration, seconds}}, then \`data: [DONE]\`; a failure after the first frame is a \`data: {"error": …}\` frame.`,
    content: {
      ...AUDIO_ANSWERS['200'].content,
      'text/event-stream': {
        // OpenAPI 3.1 has no item schema for a stream (3.2's itemSchema): the frames' JSON is an extension here.
        schema: { type: 'string', description: 'Server-sent events: `data: <JSON>` frames, then `data: [DONE]`.' },
        'x-event-data': { oneOf: [ref('OpenAiTranscriptDelta'), ref('OpenAiTranscriptDone'), ref('OpenAiError')] },
      },
    },
  },
};

const audioForm = (withLanguage: boolean): Json => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file', 'model'],
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The recording: any container ffmpeg reads, at most 300 MiB.',
          },
          model: {
            type: 'string',
            examples: ['whisper-1'],
            description: 'whisper-1 or a name GET /v1/models lists (all run the configured engine); any other name: 404 model_not_found.',
          },
          ...(withLanguage ? { language: inputField('language', 'ISO-639-1 code (or a spec 2.5 code / English name).') } : {}),
          prompt: inputField('prompt', 'Hint for recognition and spelling (spec 2.2 prompt).'),
          response_format: { type: 'string', enum: [...RESPONSE_FORMATS], default: 'json' },
          ...(withLanguage
            ? {
                stream: {
                  type: 'boolean',
                  default: false,
                  description: 'true: server-sent events, text as each segment is recognised (json and text formats only).',
                },
              }
            : {}),
          temperature: { type: 'number', minimum: 0, maximum: 1, description: 'Accepted and ignored: no engine of this service samples.' },
          ...(withLanguage
            ? {
                'timestamp_granularities[]': {
                  type: 'array',
                  items: { type: 'string', enum: [...GRANULARITIES] },
                  description: 'With verbose_json only; default segment.',
                },
              }
            : {}),
          'service.speakers': inputField('speakers', 'Extension: expected number of speakers (spec 2.2 speakers).'),
          'service.hotwords': inputField('hotwords', 'Extension: comma-separated keywords (spec 2.2 hotwords).'),
        },
      },
    },
  },
});

/** The paths of the OpenAI-compatible API, from the service root. */
export const OPENAI_OPENAPI_PATHS: Record<string, Record<string, Json>> = {
  '/v1/audio/transcriptions': {
    post: {
      operationId: 'openAiCreateTranscription',
      tags: [OPENAI_TAG.name],
      summary: 'Transcribe a recording (OpenAI’s Create transcription), synchronously',
      requestBody: audioForm(true),
      responses: TRANSCRIPTION_ANSWERS,
    },
  },
  '/v1/audio/translations': {
    post: {
      operationId: 'openAiCreateTranslation',
      tags: [OPENAI_TAG.name],
      summary: 'Speech to English text (recognition, then the configured language model)',
      requestBody: audioForm(false),
      responses: AUDIO_ANSWERS,
    },
  },
  '/v1/models': {
    get: {
      operationId: 'openAiListModels',
      tags: [OPENAI_TAG.name],
      summary: 'The configured engine and whisper-1',
      responses: {
        '200': { description: 'OpenAI’s list shape.', content: { 'application/json': { schema: ref('OpenAiModelList') } } },
        ...errors('401', '429'),
      },
    },
  },
  '/v1/models/{id}': {
    get: {
      operationId: 'openAiGetModel',
      tags: [OPENAI_TAG.name],
      summary: 'One model',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Model name.' }],
      responses: {
        '200': { description: 'The model.', content: { 'application/json': { schema: ref('OpenAiModel') } } },
        ...errors('401', '404', '429'),
      },
    },
  },
};

const segment: Json = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    seek: { type: 'integer' },
    start: { type: 'number' },
    end: { type: 'number' },
    text: { type: 'string' },
    tokens: { type: 'array', items: { type: 'integer' }, description: 'Always empty.' },
    temperature: { type: 'number' },
    avg_logprob: { type: 'number' },
    compression_ratio: { type: 'number' },
    no_speech_prob: { type: 'number' },
    speaker: { type: 'string', description: 'Extension: speaker label.' },
  },
};

/** The schemas of these operations. */
export const OPENAI_OPENAPI_SCHEMAS: Record<string, Json> = {
  OpenAiTranscriptDelta: {
    type: 'object',
    required: ['type', 'delta'],
    properties: { type: { const: 'transcript.text.delta' }, delta: { type: 'string' } },
  },
  OpenAiTranscriptDone: {
    type: 'object',
    required: ['type', 'text', 'usage'],
    properties: {
      type: { const: 'transcript.text.done' },
      text: { type: 'string' },
      usage: {
        type: 'object',
        properties: { type: { const: 'duration' }, seconds: { type: 'number', description: 'The recording’s length.' } },
      },
    },
  },
  OpenAiError: {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          type: { type: 'string' },
          param: { type: ['string', 'null'] },
          code: { type: ['string', 'null'] },
        },
      },
    },
  },
  OpenAiTranscription: { type: 'object', properties: { text: { type: 'string' } } },
  OpenAiVerboseTranscription: {
    type: 'object',
    properties: {
      task: { type: 'string', enum: ['transcribe', 'translate'] },
      language: { type: 'string', examples: ['english'] },
      duration: { type: 'number' },
      text: { type: 'string' },
      segments: { type: 'array', items: segment },
      words: {
        type: 'array',
        items: { type: 'object', properties: { word: { type: 'string' }, start: { type: 'number' }, end: { type: 'number' } } },
      },
    },
  },
  OpenAiModel: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      object: { type: 'string', const: 'model' },
      created: { type: 'integer' },
      owned_by: { type: 'string' },
    },
  },
  OpenAiModelList: {
    type: 'object',
    properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: ref('OpenAiModel') } },
  },
};
