import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { LANGUAGES } from '../spec/languages.ts';
import { POST_PROCESS_TYPE_NAMES } from '../spec/post-process-types.ts';
import { OPTIONS } from './expect-invalid-input.test-helper.ts';
import { parsePredictionInput } from './parse-prediction-input.ts';

const SECRET = 'r8_PROPERTYsecret0123456789';

/** Values near the rules, mixed with arbitrary JSON, for every known parameter. */
const nearValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '0.0',
    '-1',
    '-1.0',
    '0:00',
    '00:00:00',
    'auto',
    'json',
    'srt',
    'meeting',
    'fast',
    'https://example.com/a.mp3',
    'data:;base64,AAAA',
    'data:audio/wav,x',
    'ftp://x',
    null,
    0,
    -1,
    1,
    2,
    1.5,
    true,
  ),
  fc.constantFrom(...LANGUAGES.map((language) => language.name)),
  fc.uniqueArray(fc.constantFrom(...POST_PROCESS_TYPE_NAMES, 'srt', 'transcript', 'Summary'), { maxLength: 10 }),
  fc.array(fc.constantFrom(...POST_PROCESS_TYPE_NAMES), { maxLength: 10 }),
);
const KEYS = [
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
  'batch_size',
  'auth',
];
const audio = fc.oneof({ arbitrary: fc.constant('https://example.com/a.mp3'), weight: 4 }, { arbitrary: nearValue, weight: 1 });
const nearInput = fc
  .tuple(audio, fc.dictionary(fc.constantFrom(...KEYS), nearValue, { maxKeys: 4 }))
  .map(([value, rest]) => ({ audio: value, ...rest }));
const options = fc.record({
  recognitionLanguages: fc.oneof(fc.constant('any' as const), fc.subarray(LANGUAGES.map((language) => language.code))),
  engineName: fc.constant('test-engine'),
  identifiesLanguages: fc.boolean(),
  llmConfigured: fc.boolean(),
});

/** Runs the parser and returns the outcome, failing on any error other than invalid_input. */
function outcome(raw: unknown, opts = OPTIONS): 'ok' | string {
  try {
    const result = parsePredictionInput(raw, opts);
    expect(typeof result.audio).toBe('string');
    expect(result.post_process === null || result.post_process.length <= 8).toBe(true);
    expect(result.speakers === null || (Number.isInteger(result.speakers) && result.speakers >= 1)).toBe(true);
    return 'ok';
  } catch (error) {
    if (!isAppError(error, 'invalid_input')) throw error;
    expect(error.param).toBeTypeOf('string');
    return error.message;
  }
}

describe('parsePredictionInput on arbitrary JSON (property)', () => {
  it('should either return a PredictionInput or throw invalid_input for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => void outcome(raw)),
      { numRuns: 2000 },
    );
  });

  it('should either return or throw invalid_input for inputs near the rules', () => {
    fc.assert(
      fc.property(nearInput, options, (raw, opts) => void outcome(raw, opts)),
      { numRuns: 5000 },
    );
  });

  it('should never echo a secret held in an unknown member', () => {
    fc.assert(
      fc.property(nearInput, (raw) => {
        const message = outcome({ ...raw, auth: SECRET, client: { auth: SECRET } });
        expect(message).not.toContain('r8_');
      }),
      { numRuns: 2000 },
    );
  });
});
