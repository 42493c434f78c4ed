import { describe, expect, it } from 'vitest';
import { expectInvalid, LINK } from './expect-invalid-input.test-helper.ts';
import { parseLegacyInput } from './parse-legacy-input.ts';

describe('parseLegacyInput (spec 9, earlier variant)', () => {
  it.each([
    ['absent', undefined, 'text'],
    ['null', null, 'text'],
    ['text', 'text', 'text'],
    ['json_verbose', 'json_verbose', 'json_verbose'],
    ['txt_file_url', 'txt_file_url', 'txt_file_url'],
  ])('should accept output_format %s', (_name, output_format, expected) => {
    const result = parseLegacyInput({ url: LINK, output_format });
    expect(result.legacyFormat).toBe(expected);
    expect(result.input).toEqual({
      audio: LINK,
      language: null,
      speakers: null,
      output_format: 'text',
      domain: null,
      efficiency: null,
      multilingual: null,
      prompt: null,
      hotwords: [],
      post_process: null,
      custom_prompt: null,
      target_language: null,
    });
  });

  it.each([['json'], ['srt'], ['TEXT'], [''], [1]])('should refuse output_format %j, listing the legacy values', (output_format) => {
    const error = expectInvalid(() => parseLegacyInput({ url: LINK, output_format }), 'output_format');
    expect(error.message).toContain('text, json_verbose, txt_file_url');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['a number', 1],
    ['an ftp link', 'ftp://example.com/a.mp3'],
  ])('should refuse url %s', (_name, url) => {
    expectInvalid(() => parseLegacyInput({ url }), 'url');
  });

  it('should accept a base64 data URI as url', () => {
    expect(parseLegacyInput({ url: 'data:audio/wav;base64,AAAA' }).input.audio).toBe('data:audio/wav;base64,AAAA');
  });

  it('should ignore audio and the parameters of the current variant', () => {
    const result = parseLegacyInput({ url: LINK, audio: 'https://example.com/other.mp3', language: 'xx', post_process: 'bad' });
    expect(result.input.audio).toBe(LINK);
  });

  it.each([[undefined], [null], ['x'], [[LINK]]])('should refuse an input that is %j', (raw) => {
    expectInvalid(() => parseLegacyInput(raw), 'input');
  });
});
