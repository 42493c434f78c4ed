type Operation = Record<string, unknown>;

const API = '/v1/replicate/v1';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (description: string, schema: unknown, status = '200') => ({ [status]: { description, content: json(schema) } });

/** Problem answers by status, shared by the operations. */
const PROBLEMS: Record<string, string> = {
  '401': 'Missing or invalid API key (spec 5).',
  '404': 'No such resource for this key.',
  '409': 'cache_changed: a concurrent request changed the transcript parameters; repeat the request (spec 7).',
  '413': 'The recording is over 300 MiB (spec 8).',
  '415': 'Content-Type not accepted here.',
  '422': 'Invalid input (spec 4.5); detail names the rule.',
  '503': 'The service could not queue the work; try again shortly.',
};

function problems(...statuses: string[]): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: PROBLEMS[status], content: { 'application/problem+json': { schema: ref('Problem') } } },
    ]),
  );
}

const idParam = (name: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: `Id of the ${name}.`,
});
const cursorParam = {
  name: 'cursor',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description: 'Opaque cursor from next / previous.',
};
const transformersHeader = {
  name: 'X-Service-Output-Transformers',
  in: 'header',
  required: false,
  schema: { type: 'string', examples: ['text?speakers=true&timestamps=false&pauses=false'] },
  description: 'Plain-text output instead of the segmented object (spec 4.4).',
};
const preferHeader = {
  name: 'Prefer',
  in: 'header',
  required: false,
  schema: { type: 'string', examples: ['wait', 'wait=30'] },
  description: 'Hold the answer until the prediction ends, at most 60 s.',
};
const bodyFieldHeader = {
  name: 'X-Service-Body-Field',
  in: 'header',
  required: false,
  schema: { type: 'string', const: 'input.audio' },
  description: 'Required with application/octet-stream: the parameter that receives the body (spec 4.1).',
};

const createModelPrediction: Operation = {
  operationId: 'createModelPrediction',
  tags: ['Predictions'],
  summary: 'Create a prediction for service/transcribe (spec 4.1)',
  description:
    'Three body forms: JSON with a link, multipart/form-data with the file in part input.audio, or the raw file as application/octet-stream with parameters as input.<name> query parameters. At most 300 MiB.',
  parameters: [transformersHeader, preferHeader, bodyFieldHeader],
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: ref('CreatePrediction') },
      'multipart/form-data': { schema: ref('MultipartCreate') },
      'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
  },
  responses: { ...ok('The new prediction, status processing.', ref('Prediction'), '201'), ...problems('401', '413', '415', '422', '503') },
};

/** The `paths` of the OpenAPI document: every route of the HTTP API (docs/api.md), from the service root. */
export const OPENAPI_PATHS: Record<string, Record<string, Operation>> = {
  [`${API}/models/service/transcribe/predictions`]: { post: createModelPrediction },
  [`${API}/predictions`]: {
    post: {
      operationId: 'createPrediction',
      tags: ['Predictions'],
      summary: 'Create a prediction by version (spec 4.2)',
      parameters: [transformersHeader, preferHeader],
      requestBody: { required: true, content: json(ref('CreatePredictionByVersion')) },
      responses: { ...ok('The new prediction.', ref('Prediction'), '201'), ...problems('401', '413', '415', '422', '503') },
    },
    get: {
      operationId: 'listPredictions',
      tags: ['Predictions'],
      summary: 'List the key’s predictions, newest first, 100 per page',
      parameters: [cursorParam],
      responses: { ...ok('A page of predictions.', ref('PredictionList')), ...problems('401', '422') },
    },
  },
  [`${API}/predictions/{id}`]: {
    get: {
      operationId: 'getPrediction',
      tags: ['Predictions'],
      summary: 'Get a prediction (spec 4.3); poll until succeeded, failed or canceled',
      parameters: [idParam('prediction'), transformersHeader],
      responses: { ...ok('The prediction.', ref('Prediction')), ...problems('401', '404', '422') },
    },
  },
  [`${API}/predictions/{id}/cancel`]: {
    post: {
      operationId: 'cancelPrediction',
      tags: ['Predictions'],
      summary: 'Cancel a running prediction',
      parameters: [idParam('prediction')],
      responses: { ...ok('The prediction (canceled, or unchanged when it had ended).', ref('Prediction')), ...problems('401', '404') },
    },
  },
  [`${API}/predictions/{id}/output.txt`]: {
    get: {
      operationId: 'getPredictionText',
      tags: ['Predictions'],
      summary: 'Plain text of a succeeded prediction (txt_file_url, spec 9)',
      parameters: [idParam('prediction')],
      responses: {
        '200': { description: 'The text.', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...problems('401', '404'),
      },
    },
  },
  [`${API}/files`]: {
    post: {
      operationId: 'createFile',
      tags: ['Files'],
      summary: 'Upload a file (kept 24 hours)',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['content'],
              properties: {
                content: { type: 'string', contentMediaType: 'application/octet-stream' },
                metadata: { type: 'string', description: 'A JSON object.' },
              },
            },
          },
        },
      },
      responses: { ...ok('The file.', ref('File'), '201'), ...problems('401', '413', '415', '422') },
    },
    get: {
      operationId: 'listFiles',
      tags: ['Files'],
      summary: 'List the key’s files',
      parameters: [cursorParam],
      responses: { ...ok('A page of files.', ref('FileList')), ...problems('401', '422') },
    },
  },
  [`${API}/files/{id}`]: {
    get: {
      operationId: 'getFile',
      tags: ['Files'],
      summary: 'Get a file',
      parameters: [idParam('file')],
      responses: { ...ok('The file.', ref('File')), ...problems('401', '404') },
    },
    delete: {
      operationId: 'deleteFile',
      tags: ['Files'],
      summary: 'Delete a file',
      parameters: [idParam('file')],
      responses: { '204': { description: 'Deleted.' }, ...problems('401', '404') },
    },
  },
  [`${API}/files/{id}/download`]: {
    get: {
      operationId: 'downloadFile',
      tags: ['Files'],
      summary: 'Download a file’s content',
      parameters: [idParam('file')],
      responses: {
        '200': {
          description: 'The content.',
          content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        },
        ...problems('401', '404'),
      },
    },
  },
  [`${API}/account`]: {
    get: {
      operationId: 'getAccount',
      tags: ['Account'],
      summary: 'The key and its usage in the free-repeat window',
      responses: { ...ok('The account.', ref('Account')), ...problems('401') },
    },
  },
  [`${API}/webhooks/default/secret`]: {
    get: {
      operationId: 'getWebhookSecret',
      tags: ['Account'],
      summary: 'The webhook signing secret',
      responses: { ...ok('The secret.', ref('WebhookSecret')), ...problems('401') },
    },
  },
  '/v1/models/service/transcribe/predictions': {
    post: {
      operationId: 'legacyCreateModelPrediction',
      tags: ['Earlier interface (spec 9)'],
      summary: 'Create (earlier variant: input.url, string output)',
      requestBody: { required: true, content: json(ref('LegacyCreate')) },
      responses: { ...ok('The new prediction.', ref('Prediction'), '201'), ...problems('401', '422') },
    },
  },
  '/v1/predictions': {
    post: {
      operationId: 'legacyCreatePrediction',
      tags: ['Earlier interface (spec 9)'],
      summary: 'Create by version (earlier variant)',
      requestBody: { required: true, content: json(ref('LegacyCreate')) },
      responses: { ...ok('The new prediction.', ref('Prediction'), '201'), ...problems('401', '422') },
    },
  },
  '/v1/predictions/{id}': {
    get: {
      operationId: 'legacyGetPrediction',
      tags: ['Earlier interface (spec 9)'],
      summary: 'Get (earlier variant)',
      parameters: [idParam('prediction')],
      responses: { ...ok('The prediction.', ref('Prediction')), ...problems('401', '404') },
    },
  },
  '/v1/queue': {
    get: {
      operationId: 'getQueue',
      tags: ['Predictions'],
      summary: 'The key’s waiting and running predictions with their place in the fair queue and estimates (an extension)',
      description:
        'With an API key: its own unfinished predictions. With the service’s admin token (X-Admin-Token, from loopback only): every key’s counts, without names or links (docs/api.md "Queue").',
      responses: { ...ok('The key’s queue.', ref('KeyQueue')), ...problems('401') },
    },
  },
  '/health': {
    get: {
      operationId: 'health',
      tags: ['Service'],
      summary: 'Liveness (no key needed)',
      security: [],
      responses: ok('The service is up.', { type: 'object', properties: { status: { type: 'string', const: 'ok' } } }),
    },
  },
};
