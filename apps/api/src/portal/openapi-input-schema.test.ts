import { buildLegacyInputJsonSchema, buildPredictionInputJsonSchema } from '@transcribe/core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

type Json = Record<string, unknown>;

describe('the input schemas of the OpenAPI document', () => {
  const document = buildOpenApiDocument('http://localhost:1');
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;

  it('should be the JSON Schema generated from the zod schema that parses the input (spec 2.2)', () => {
    expect(schemas.PredictionInput).toEqual(buildPredictionInputJsonSchema());
    expect(Object.keys(schemas.PredictionInput!.properties as Json)).toEqual([
      'audio',
      'language',
      'speakers',
      'output_format',
      'domain',
      'efficiency',
      'multilingual',
      'prompt',
      'hotwords',
      'cut_start',
      'cut_duration',
      'post_process',
      'custom_prompt',
      'target_language',
      'known_voices',
      'known_voices_threshold',
      'drop_flagged',
    ]);
  });

  it('should give the OpenAI form fields that become spec 2.2 parameters the generated types and limits', () => {
    const form = (document.paths as Record<string, { post: Json }>)['/v1/audio/transcriptions']!.post;
    const fields = ((form.requestBody as Json).content as Record<string, { schema: { properties: Record<string, Json> } }>)[
      'multipart/form-data'
    ]!.schema.properties;
    const input = buildPredictionInputJsonSchema().properties as Record<string, Json>;
    expect(fields['service.speakers']).toMatchObject({ type: 'integer', minimum: input.speakers!.minimum });
    expect(fields['service.hotwords']).toMatchObject({ type: 'string', maxLength: input.hotwords!.maxLength });
    expect(fields.prompt).toMatchObject({ type: 'string', maxLength: input.prompt!.maxLength });
  });

  it('should use the generated legacy input in LegacyCreate (spec 9)', () => {
    expect((schemas.LegacyCreate!.properties as Json).input).toEqual(buildLegacyInputJsonSchema());
  });
});
