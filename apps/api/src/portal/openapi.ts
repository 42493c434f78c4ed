import { OPENAI_OPENAPI_PATHS, OPENAI_OPENAPI_SCHEMAS, OPENAI_TAG } from '../openai/openai-openapi.ts';
import { OPENAPI_PATHS } from './openapi-paths.ts';
import { OPENAPI_SCHEMAS } from './openapi-schemas.ts';

/** Version of the interface the document describes (spec 9). */
export const INTERFACE_VERSION = '0.17.0';

/**
 * The OpenAPI 3.1 document of the HTTP API, served at `/openapi.json` and rendered by the
 * portal's reference page. Paths are written from the service root (`rootUrl`), so the current API
 * (`/v1/replicate/v1/…`) and the earlier variant (`/v1/…`, spec 9) both appear; every path also
 * answers without the inner `/v1` (docs/api.md).
 */
export function buildOpenApiDocument(rootUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Transcription service API',
      version: INTERFACE_VERSION,
      description:
        'Asynchronous transcription with a Replicate-compatible API. Create a prediction, then poll it until its status is succeeded or failed. ' +
        `Clients: Python replicate (base ${rootUrl}/v1/replicate), npm replicate (base ${rootUrl}/v1/replicate/v1). Get a key in the account portal at ${rootUrl}/portal.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: rootUrl, description: 'This service' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'Predictions', description: 'Transcription tasks (spec 2.1, 3, 4).' },
      { name: 'Files', description: 'Uploaded files, kept 24 hours; pass urls.get as input.audio.' },
      { name: 'Account', description: 'The key’s usage and webhook secret.' },
      { name: 'Earlier interface (spec 9)', description: 'The earlier variant: input.url, string output.' },
      OPENAI_TAG,
      { name: 'Service', description: 'Operational endpoints.' },
    ],
    paths: { ...OPENAPI_PATHS, ...OPENAI_OPENAPI_PATHS },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key> (spec 5.1). Token <key> and the header name Authentication are accepted too.',
        },
      },
      schemas: { ...OPENAPI_SCHEMAS, ...OPENAI_OPENAPI_SCHEMAS },
    },
  };
}
