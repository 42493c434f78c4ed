import { describe, expect, it } from 'vitest';
import { catchInvalid, expectInvalid, LINK, OPTIONS, parseWith } from './expect-invalid-input.test-helper.ts';
import { parsePredictionInput } from './parse-prediction-input.ts';

const SECRET = 'r8_secretKEY1234567890abcdef';

describe('parsePredictionInput (spec 2.2, 4.5)', () => {
  it('should fill the defaults of spec 2.2 for an input with only audio', () => {
    expect(parsePredictionInput({ audio: LINK }, OPTIONS)).toEqual({
      audio: LINK,
      language: null,
      speakers: null,
      output_format: 'json',
      domain: null,
      efficiency: null,
      multilingual: null,
      prompt: null,
      hotwords: [],
      post_process: null,
      custom_prompt: null,
      target_language: null,
      known_voices: null,
      known_voices_threshold: null,
    });
  });

  it('should return every parameter normalised', () => {
    const input = {
      audio: LINK,
      language: 'English',
      speakers: 2,
      output_format: 'srt',
      domain: 'meeting',
      efficiency: 'accurate',
      multilingual: false,
      prompt: ' Acme ',
      hotwords: 'Acme, Bob',
      cut_start: '00:00',
      cut_duration: -1,
      post_process: ['summary', 'custom', 'translation'],
      custom_prompt: 'Jokes?',
      target_language: 'German',
    };
    expect(parsePredictionInput(input, OPTIONS)).toEqual({
      audio: LINK,
      language: 'en',
      speakers: 2,
      output_format: 'srt',
      domain: 'meeting',
      efficiency: 'accurate',
      multilingual: false,
      prompt: 'Acme',
      hotwords: ['Acme', 'Bob'],
      post_process: ['summary', 'custom', 'translation'],
      custom_prompt: 'Jokes?',
      target_language: 'de',
      known_voices: null,
      known_voices_threshold: null,
    });
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['a string', 'https://example.com/a.mp3'],
    ['a list', [LINK]],
    ['a number', 1],
    ['true', true],
  ])('should refuse an input that is %s', (_name, raw) => {
    expectInvalid(() => parsePredictionInput(raw, OPTIONS), 'input');
  });

  it('should refuse {} as missing audio (Python run() with no input)', () => {
    expect(catchInvalid(() => parsePredictionInput({}, OPTIONS)).param).toBe('audio');
  });

  it.each([
    ['batch_size', 8],
    ['correction', true],
    ['debug', true],
    ['spelling', 'x'],
    ['stereo', true],
    ['enhance_asr', true],
    ['log_progress', false],
    ['auto_multilingual', true],
    ['some_future_option', { a: 1 }],
  ])('should accept and ignore %s', (name, value) => {
    const result = parseWith({ [name]: value });
    expect(result).not.toHaveProperty(name);
    expect(result).toEqual(parseWith({}));
  });

  it('should read only own members, never inherited ones', () => {
    expect(catchInvalid(() => parsePredictionInput(Object.create({ audio: LINK }), OPTIONS)).param).toBe('audio');
    const parsed = JSON.parse(`{"__proto__": {"audio": "${LINK}"}}`) as unknown;
    expect(catchInvalid(() => parsePredictionInput(parsed, OPTIONS)).param).toBe('audio');
  });

  it.each([
    ['audio before language', { audio: 5, language: 'xx' }, 'audio'],
    ['language before speakers', { language: 'xx', speakers: 0 }, 'language'],
    ['speakers before output_format', { speakers: 0, output_format: 'x' }, 'speakers'],
    ['output_format before domain', { output_format: 'x', domain: 'x' }, 'output_format'],
    ['domain before efficiency', { domain: 'x', efficiency: 'x' }, 'domain'],
    ['efficiency before multilingual', { efficiency: 'x', multilingual: 'x' }, 'efficiency'],
    ['multilingual before prompt', { multilingual: 'x', prompt: 1 }, 'multilingual'],
    ['prompt before hotwords', { prompt: 1, hotwords: 1 }, 'prompt'],
    ['hotwords before cut_start', { hotwords: 1, cut_start: 5 }, 'hotwords'],
    ['cut_start before cut_duration', { cut_start: 5, cut_duration: 5 }, 'cut_start'],
    ['cut_duration before post_process', { cut_duration: 5, post_process: 'summary' }, 'cut_duration'],
    ['post_process before custom_prompt', { post_process: ['x'], custom_prompt: 1 }, 'post_process'],
    ['custom_prompt before target_language', { post_process: ['custom', 'translation'] }, 'custom_prompt'],
  ])('should report %s', (_name, params, param) => {
    expect(catchInvalid(() => parseWith(params)).param).toBe(param);
  });

  it('should report a missing language model before custom_prompt and target_language', () => {
    const error = catchInvalid(() => parseWith({ post_process: ['custom', 'translation'] }, { llmConfigured: false }));
    expect(error.param).toBe('post_process');
  });

  it('should use uploadedAudio instead of input.audio for a file in the request', () => {
    expect(parsePredictionInput({ language: 'en' }, { ...OPTIONS, uploadedAudio: 'upload:a.wav' }).audio).toBe('upload:a.wav');
  });

  it('should keep the input object unchanged', () => {
    const input = { audio: ` ${LINK} `, hotwords: 'a,b', post_process: ['summary'] };
    const copy = structuredClone(input);
    parsePredictionInput(input, OPTIONS);
    expect(input).toEqual(copy);
  });
});

describe('secrets in the input (replicate-compat 3, 10.5)', () => {
  it('should not echo the API key of the broken JS client object sent as input', () => {
    const clientObject = {
      auth: SECRET,
      baseUrl: 'https://example.com/v1',
      userAgent: 'replicate-javascript/0.31.1',
      fileEncodingStrategy: 'data-uri',
    };
    const error = expectInvalid(() => parsePredictionInput(clientObject, OPTIONS), 'audio');
    expect(error.message).not.toContain('r8_');
    expect(error.message).not.toContain('example.com/v1');
  });

  it.each([
    ['audio', { audio: 42 }],
    ['language', { language: 'xx' }],
    ['speakers', { speakers: 0 }],
    ['post_process', { post_process: 'summary' }],
    ['target_language', { post_process: ['translation'] }],
    ['cut_start', { cut_start: 'abc' }],
  ])('should not echo an unknown member when %s is invalid', (param, params) => {
    const error = expectInvalid(() => parseWith({ auth: SECRET, token: { key: SECRET }, ...params }), param);
    expect(error.message).not.toContain('r8_secret');
  });

  it('should quote at most 40 characters of an offending value', () => {
    const error = expectInvalid(() => parseWith({ language: `xx${SECRET}${'y'.repeat(100)}` }), 'language');
    expect(error.message).not.toContain('y'.repeat(20));
    expect(error.message).toContain('…');
  });
});
