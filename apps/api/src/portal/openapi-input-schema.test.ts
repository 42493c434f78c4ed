import { buildLegacyInputJsonSchema, buildPredictionInputJsonSchema } from '@transcribe/core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

type Json = Record<string, unknown>;

describe('the input schemas of the OpenAPI document', () => {
  const schemas = (buildOpenApiDocument('http://localhost:1').components as { schemas: Record<string, Json> }).schemas;

  it('should be the JSON Schema generated from the zod schema that parses the input (spec 2.2)', () => {
    expect(schemas.PredictionInput).toEqual(buildPredictionInputJsonSchema());
    expect(Object.keys(schemas.PredictionInput!.properties as Json)).toEqual([
      'audio', 'language', 'speakers', 'output_format', 'domain', 'efficiency', 'multilingual', 'prompt', 'hotwords',
      'cut_start', 'cut_duration', 'post_process', 'custom_prompt', 'target_language',
    ]);
  });

  it('should use the generated legacy input in LegacyCreate (spec 9)', () => {
    expect((schemas.LegacyCreate!.properties as Json).input).toEqual(buildLegacyInputJsonSchema());
  });
});
