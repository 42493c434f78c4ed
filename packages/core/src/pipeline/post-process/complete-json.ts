import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.ts';
import type { ChatSession } from './chat-session.ts';
import { completeChat } from './complete-chat.ts';
import type { ChatRequest } from './complete-chat.ts';

/** Answers asked for when the model's JSON is unusable (not JSON, wrong form, failed check). */
export const MAX_ANSWER_ATTEMPTS = 2;

/**
 * The JSON Schema sent as `response_format.json_schema.schema`, generated from the same zod
 * schema that validates the answer (so the two cannot drift), without the `$schema` member.
 */
export function toResponseSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

/** Parses a JSON answer (a Markdown code fence around it is tolerated); the problem in plain words when unusable. */
export function parseJsonAnswer<T>(answer: string, schema: z.ZodType<T>): { value: T } | { problem: string } {
  const text = answer
    .trim()
    .replace(/^```(?:json)?\s*\n?/u, '')
    .replace(/\n?```$/u, '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: "the model's answer is not valid JSON" };
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? { value: parsed.data } : { problem: "the model's answer does not follow the requested JSON schema" };
}

/**
 * Structured output: sends `request` with `schema` as its JSON Schema (strict), parses and
 * validates the answer, then runs `check` (a problem in plain words, or null). An unusable answer
 * is asked for again, MAX_ANSWER_ATTEMPTS answers in all.
 *
 * @throws AppError `post_processing_failed`, e.g. `the model's answer is not valid JSON (2 answers)`.
 */
export async function completeJson<T>(
  session: ChatSession,
  request: Omit<ChatRequest, 'jsonSchema'>,
  schemaName: string,
  schema: z.ZodType<T>,
  check: (value: T) => string | null = () => null,
): Promise<T> {
  const withSchema: ChatRequest = { ...request, jsonSchema: { name: schemaName, schema: toResponseSchema(schema) } };
  let problem = '';
  for (let attempt = 1; attempt <= MAX_ANSWER_ATTEMPTS; attempt += 1) {
    const parsed = parseJsonAnswer(await completeChat(session, withSchema), schema);
    problem = 'problem' in parsed ? parsed.problem : (check(parsed.value) ?? '');
    if (problem === '' && 'value' in parsed) return parsed.value;
  }
  throw new AppError('post_processing_failed', `${problem} (${MAX_ANSWER_ATTEMPTS} answers)`);
}
