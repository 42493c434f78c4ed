/**
 * The JSON Schemas of the creation inputs for the OpenAPI document (OpenAPI 3.1, JSON Schema
 * draft 2020-12), generated from the zod schemas that also parse them (z.toJSONSchema).
 */
import { z } from 'zod';
import { buildPredictionInputSchema } from './prediction-input-schema.ts';
import { legacyInputSchema } from './parse-legacy-input.ts';

type Json = Record<string, unknown>;

/**
 * The JSON Schema of the spec 2.2 `input` (model `service/transcribe`), from
 * buildPredictionInputSchema. The document describes the parameters' forms, which do not depend
 * on the configuration (only details and engine checks do), so any configuration serves.
 * @returns a JSON Schema object, e.g. `{type: 'object', required: ['audio'], properties: {audio: {type: 'string', …}, …}}`.
 */
export function buildPredictionInputJsonSchema(): Json {
  const schema = buildPredictionInputSchema({
    recognitionLanguages: 'any',
    engineName: 'any',
    identifiesLanguages: true,
    llmConfigured: true,
    readsAudio: true,
  });
  return toOpenApiSchema(schema);
}

/** The JSON Schema of the spec 9 `input` (`{url, output_format}`), from legacyInputSchema. */
export function buildLegacyInputJsonSchema(): Json {
  return toOpenApiSchema(legacyInputSchema);
}

/**
 * z.toJSONSchema of what a client sends (`io: 'input'`: transforms are described by what they
 * accept), without `$schema`, with "X or null" written as `type: [X, 'null']` (and `null` added to
 * an `enum`) as OpenAPI 3.1 documents usually do, and a `type` list beside each `anyOf`.
 */
function toOpenApiSchema(schema: z.ZodType): Json {
  const { $schema: _schema, ...json } = z.toJSONSchema(schema, { io: 'input' });
  return simplify(json) as Json;
}

function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, simplify(value)])) as Json;
  const anyOf = out.anyOf as Json[] | undefined;
  if (anyOf === undefined) return out;
  const { anyOf: _anyOf, ...rest } = out;
  const [first, second] = anyOf;
  if (
    anyOf.length === 2 &&
    second?.type === 'null' &&
    Object.keys(second).length === 1 &&
    typeof first?.type === 'string' &&
    first.anyOf === undefined
  ) {
    const enumValues = first.enum as unknown[] | undefined;
    return { ...first, ...rest, type: [first.type, 'null'], ...(enumValues ? { enum: [...enumValues, null] } : {}) };
  }
  const members = anyOf.flatMap((member) => (isBareAnyOf(member) ? (member.anyOf as Json[]) : [member]));
  const types = [...new Set(members.flatMap((member) => member.type ?? []))];
  return { ...rest, ...(members.every((member) => member.type !== undefined) ? { type: types } : {}), anyOf: members };
}

/** A schema that only says "any of these" (and the `type` list simplify adds), so its members can join the outer anyOf. */
function isBareAnyOf(member: Json): boolean {
  return Array.isArray(member.anyOf) && Object.keys(member).every((key) => key === 'anyOf' || key === 'type');
}
