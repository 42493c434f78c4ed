import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';

describe('output_format (spec 2.2)', () => {
  it.each([
    ['absent', undefined, 'json'],
    ['null', null, 'json'],
    ['json', 'json', 'json'],
    ['json2', 'json2', 'json2'],
    ['text', 'text', 'text'],
    ['srt', 'srt', 'srt'],
    ['lrc', 'lrc', 'lrc'],
  ])('should accept %s', (_name, output_format, expected) => {
    expect(parseWith({ output_format }).output_format).toBe(expected);
  });

  it.each([
    ['upper case', 'JSON'],
    ['padded', ' json'],
    ['empty', ''],
    ['txt', 'txt'],
    ['vtt', 'vtt'],
    ['a legacy format', 'json_verbose'],
    ['a number', 1],
    ['a list', ['json']],
  ])('should refuse %s, listing the allowed values', (_name, output_format) => {
    const error = expectInvalid(() => parseWith({ output_format }), 'output_format');
    expect(error.message).toContain('json, json2, text, srt, lrc');
  });
});
