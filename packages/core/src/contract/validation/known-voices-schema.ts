/**
 * The voice registry's rules (docs/speakers.md): the `known_voices` and `known_voices_threshold`
 * prediction parameters, and the body of `POST /v1/voices` and `POST /v1/voices/{id}/samples`.
 * Not spec 2.2 parameters: service extensions, ignored by clients that do not send them.
 */
import { z } from 'zod';
import { describeValue, invalidInput } from './invalid-input.ts';

/** Most voices one prediction may name in `known_voices` (an account holds at most MAX_VOICES_PER_ACCOUNT by default). */
export const MAX_KNOWN_VOICES = 50;
/** Longest voice name, in characters (code points). */
export const MAX_VOICE_NAME_CHARS = 64;
/** Samples one request may carry. */
export const MAX_SAMPLES_PER_REQUEST = 8;
/** Shortest and longest sample, seconds of recording (the issue's rule, as pyannoteAI's 30 s voiceprint limit). */
export const MIN_SAMPLE_SECONDS = 2;
export const MAX_SAMPLE_SECONDS = 30;
/** Least speech a sample must hold, seconds (one embedding window and context, as MIN_SPEECH_SECONDS_PER_SPEAKER of the diarizer). */
export const MIN_SAMPLE_SPEECH_SECONDS = 1.5;

/**
 * Labels a voice name may not take, because the outputs already use them for unnamed speakers:
 * `SPEAKER_<n>` (docs/formats.md) and the single capital letters of OpenAI's `diarized_json`.
 */
const RESERVED_NAME = /^(?:SPEAKER_\d+|[A-Z])$/;

/**
 * A voice's name: 1–64 characters once trimmed, no control characters, not a label the outputs use
 * for unnamed speakers (`SPEAKER_2`, `A`).
 */
export function voiceNameSchema(param = 'name') {
  return z
    .string({ error: (issue) => `${param} must be a string such as "Alice"; got ${describeValue(issue.input)}.` })
    .transform((value, ctx) => {
      const name = value.trim();
      const problem =
        name === ''
          ? `${param} must not be empty.`
          : Array.from(name).length > MAX_VOICE_NAME_CHARS
            ? `${param} must have at most ${MAX_VOICE_NAME_CHARS} characters.`
            : /\p{Cc}/u.test(name)
              ? `${param} must not hold control characters.`
              : RESERVED_NAME.test(name)
                ? `${param} ${describeValue(name)} is how unnamed speakers are labelled; choose another name.`
                : undefined;
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return name;
    });
}

/**
 * `known_voices`: absent or null → null (no identification); `true` → every voice of the account;
 * a list of 1–50 voice ids or names (strings, unique) → those. Whether they exist is checked against
 * the account when the prediction is created (resolveKnownVoices), still before any download.
 */
export function knownVoicesSchema() {
  const error = (issue: { input?: unknown }) =>
    `known_voices must be true (all your voices) or a list of voice ids or names, or null; got ${describeValue(issue.input)}.`;
  return z
    .union(
      [
        z.literal(true),
        z
          .array(
            z
              .string()
              .trim()
              .min(1)
              .max(MAX_VOICE_NAME_CHARS * 4),
          )
          .min(1)
          .max(MAX_KNOWN_VOICES),
      ],
      { error },
    )
    .superRefine((value, ctx) => {
      if (Array.isArray(value) && new Set(value).size !== value.length)
        ctx.addIssue({ code: 'custom', message: 'known_voices names a voice twice.' });
    })
    .meta({ description: 'Voices of your registry to recognise (ids or names), or true for all of them (docs/speakers.md).' })
    .nullish()
    .transform((value) => value ?? null);
}

/**
 * `known_voices_threshold`: the cosine similarity a cluster needs to take a voice's name, a number
 * from -1 to 1, or null for the calibrated default of the embeddings used (docs/speakers.md).
 */
export function knownVoicesThresholdSchema() {
  const error = (issue: { input?: unknown }) =>
    `known_voices_threshold must be a number from -1 to 1, or null for the default; got ${describeValue(issue.input)}.`;
  return z
    .number({ error })
    .min(-1, { error })
    .max(1, { error })
    .meta({ description: 'Similarity a speaker needs to take a known voice name (default: calibrated per embedding kind).' })
    .nullish()
    .transform((value) => value ?? null);
}

/** One sample of a voice: an http(s) link, a `data:` URI, or the `urls.get` of an uploaded file. */
function sampleSchema() {
  return z
    .string({ error: (issue) => `Each sample must be a link, a data: URI or an uploaded file's URL; got ${describeValue(issue.input)}.` })
    .trim()
    .refine((value) => /^(?:https?:\/\/|data:)/i.test(value), {
      error: (issue) => `Each sample must be an http(s) link or a data: URI; got ${describeValue(issue.input)}.`,
    });
}

/**
 * The JSON body of `POST /v1/voices`: `{name, samples: [1–8 links or data: URIs]}`. A multipart body
 * gives `name` as a field and one uploaded `sample` file (the route merges it in as `uploads`).
 * @returns a schema whose output is `{name, samples}`.
 */
export function createVoiceSchema(options: { uploads: number }) {
  return z.object(
    { name: voiceNameSchema(), samples: samplesSchema(options.uploads) },
    { error: () => 'The body must be a JSON object {"name": …, "samples": [...]} or a multipart form with name and a sample file.' },
  );
}

/** The body of `POST /v1/voices/{id}/samples`: `{samples: [...]}` (or one uploaded `sample` file). */
export function addSamplesSchema(options: { uploads: number }) {
  return z.object(
    { samples: samplesSchema(options.uploads) },
    { error: () => 'The body must be a JSON object {"samples": [...]} or a multipart form with a sample file.' },
  );
}

function samplesSchema(uploads: number) {
  const most = MAX_SAMPLES_PER_REQUEST - uploads;
  return z
    .array(sampleSchema(), { error: () => 'samples must be a list of links or data: URIs.' })
    .max(most, { error: `At most ${MAX_SAMPLES_PER_REQUEST} samples per request.` })
    .nullish()
    .transform((value) => value ?? [])
    .refine((value) => value.length + uploads >= 1, { error: 'Give at least one sample of the voice (2–30 s of one speaker).' });
}

/**
 * Runs a voice-request schema and turns its first issue into the one `invalid_input` error (422),
 * `param` the member concerned.
 * @throws AppError `invalid_input`.
 */
export function parseVoiceRequest<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(String(issue.path[0] ?? 'body'), issue.message);
}

/** Most known speakers of one OpenAI request ("Up to 4 speakers are supported", openai-node transcriptions.ts). */
export const MAX_KNOWN_SPEAKERS = 4;

/**
 * OpenAI's `known_speaker_names[]` and `known_speaker_references[]` (docs/openai-api.md), read from the
 * form's values in either encoding the clients send (repeated `key[]` parts, or one JSON array string):
 * as many names as references, at most 4, each name 1–64 characters without control characters, each
 * reference a `data:` URL (their 2–10 s are checked when they are measured).
 * @returns the pairs, in order; [] when neither field was sent.
 * @throws AppError `invalid_input` (param the field concerned).
 */
export function parseKnownSpeakers(names: readonly string[], references: readonly string[]): { name: string; dataUrl: string }[] {
  const list = (values: readonly string[], param: string): string[] =>
    values.flatMap((value) => {
      const trimmed = value.trim();
      if (!trimmed.startsWith('[')) return [value];
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        throw invalidInput(
          param,
          `${param} looks like a JSON array but does not parse; send one part per entry or a JSON array of strings.`,
        );
      }
      if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
        throw invalidInput(param, `${param} must be strings: one part per entry or a JSON array of strings.`);
      }
      return parsed as string[];
    });
  const allNames = list(names, 'known_speaker_names[]').map((name) => name.trim());
  const allReferences = list(references, 'known_speaker_references[]').map((reference) => reference.trim());
  if (allNames.length !== allReferences.length) {
    throw invalidInput(
      'known_speaker_names[]',
      `known_speaker_names[] and known_speaker_references[] must pair up: got ${allNames.length} names and ${allReferences.length} references.`,
    );
  }
  if (allNames.length > MAX_KNOWN_SPEAKERS) {
    throw invalidInput('known_speaker_names[]', `At most ${MAX_KNOWN_SPEAKERS} known speakers are supported; got ${allNames.length}.`);
  }
  allNames.forEach((name) => {
    if (name === '' || Array.from(name).length > MAX_VOICE_NAME_CHARS || /\p{Cc}/u.test(name)) {
      throw invalidInput(
        'known_speaker_names[]',
        `Each known speaker name must have 1 to ${MAX_VOICE_NAME_CHARS} characters; got ${describeValue(name)}.`,
      );
    }
  });
  if (new Set(allNames).size !== allNames.length)
    throw invalidInput('known_speaker_names[]', 'known_speaker_names[] names a speaker twice.');
  allReferences.forEach((reference) => {
    if (!/^data:/i.test(reference)) {
      throw invalidInput(
        'known_speaker_references[]',
        `Each known speaker reference must be a data: URL of 2–10 s of audio; got ${describeValue(reference)}.`,
      );
    }
  });
  return allNames.map((name, i) => ({ name, dataUrl: allReferences[i]! }));
}
