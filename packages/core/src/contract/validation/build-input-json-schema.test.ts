import { describe, expect, it } from 'vitest';
import { buildLegacyInputJsonSchema, buildPredictionInputJsonSchema } from './build-input-json-schema.ts';
import { buildPredictionInputSchema } from './prediction-input-schema.ts';
import { legacyInputSchema } from './parse-legacy-input.ts';

type Json = Record<string, unknown>;

/** One value of each JSON type, to probe what a parameter's zod schema accepts. */
const SAMPLES: Record<string, unknown> = {
  string: 'not-a-value',
  number: 1.5,
  integer: 7,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

const schema = buildPredictionInputSchema({
  recognitionLanguages: 'any',
  engineName: 'e',
  identifiesLanguages: true,
  llmConfigured: true,
  readsAudio: true,
});

describe.each([
  ['PredictionInput (spec 2.2)', buildPredictionInputJsonSchema(), schema.in.shape],
  ['legacy input (spec 9)', buildLegacyInputJsonSchema(), legacyInputSchema.shape],
])(
  'the JSON Schema of %s, generated from its zod schema',
  (_name, json: Json, shape: Record<string, { safeParse(value: unknown): { success: boolean } }>) => {
    const properties = json.properties as Record<string, Json>;

    it('should list exactly the parameters of the zod schema, required ones marked', () => {
      expect(Object.keys(properties)).toEqual(Object.keys(shape));
      const required = Object.keys(shape).filter((name) => !shape[name]!.safeParse(undefined).success);
      expect(json.required).toEqual(required);
      expect(json).not.toHaveProperty('$schema');
    });

    it.each(Object.keys(shape))('should give %s the types and values its zod schema accepts', (name) => {
      const property = properties[name]!;
      const types = [property.type].flat() as string[];
      expect(types.length).toBeGreaterThan(0);
      for (const [type, sample] of Object.entries(SAMPLES)) {
        // a type the document does not list is refused by the parser (integer is a kind of number)
        if (!types.includes(type) && !(type === 'integer' && types.includes('number')))
          expect(shape[name]!.safeParse(sample).success, `${name} ${type}`).toBe(false);
      }
      expect(shape[name]!.safeParse(null).success).toBe(types.includes('null'));
      const values = (property.enum ?? (property.items as Json | undefined)?.enum) as unknown[] | undefined;
      for (const value of values ?? []) {
        expect(shape[name]!.safeParse(property.items ? [value] : value).success, `${name} ${String(value)}`).toBe(true);
      }
    });
  },
);

describe('the generated PredictionInput', () => {
  it('should carry the enums and limits of the rules', () => {
    const properties = buildPredictionInputJsonSchema().properties as Record<string, Json>;
    expect(properties.output_format).toMatchObject({ type: ['string', 'null'], default: 'json' });
    expect(properties.domain!.enum).toContain('meeting');
    expect(properties.speakers).toMatchObject({ type: ['integer', 'null'], minimum: 1 });
    expect(properties.speakers).not.toHaveProperty('maximum');
    expect(properties.post_process).toMatchObject({ type: ['array', 'null'], maxItems: 8, uniqueItems: true });
    expect((properties.post_process!.items as Json).enum).toHaveLength(18);
    expect(properties.cut_start!.type).toEqual(['number', 'string', 'null']);
  });
});
