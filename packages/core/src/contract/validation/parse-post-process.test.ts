import { describe, expect, it } from 'vitest';
import { POST_PROCESS_TYPE_NAMES } from '../spec/post-process-types.ts';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';

/** Extra members that make types needing them valid. */
const NEEDS = { custom_prompt: 'List the jokes.', target_language: 'de' };

describe('post_process (spec 2.2, 2.4, 4.5 rule 1, 8)', () => {
  it.each<[string, unknown, unknown]>([
    ['absent', undefined, null],
    ['null', null, null],
    ['an empty list', [], []],
    ['one type', ['summary'], ['summary']],
    ['8 types, order kept', POST_PROCESS_TYPE_NAMES.slice(0, 8), POST_PROCESS_TYPE_NAMES.slice(0, 8)],
    ...POST_PROCESS_TYPE_NAMES.map((type): [string, unknown, unknown] => [`the type ${type}`, [type], [type]]),
  ])('should accept %s', (_name, post_process, expected) => {
    expect(parseWith({ post_process, ...NEEDS }).post_process).toEqual(expected);
  });

  it.each([
    ['a string, not a list', 'summary', 'must be a list'],
    ['a comma-separated string', 'summary,gist', 'must be a list'],
    ['an object', { summary: true }, 'must be a list'],
    ['a number', 1, 'must be a list'],
    ['true', true, 'must be a list'],
    ['a list with a number', ['summary', 1], 'item 2'],
    ['a list with null', [null], 'item 1'],
    ['a nested list', [['summary']], 'item 1'],
    ['9 types', [...POST_PROCESS_TYPE_NAMES.slice(0, 9)], 'post_process must contain at most 8 types; got 9.'],
    ['a repeated type', ['summary', 'gist', 'summary'], '"summary" appears more than once'],
    ['an unknown type', ['sumary'], 'not a known type'],
    ['a type in another case', ['Summary'], 'Did you mean "summary"?'],
    ['an empty name', [''], 'not a known type'],
    ['srt', ['srt'], 'set output_format to "srt"'],
    ['lrc', ['lrc'], 'set output_format to "lrc"'],
    ['json', ['json'], 'output format'],
    ['text', ['text'], 'output format'],
    ['transcript', ['transcript'], 'internal'],
    ['transcription', ['transcription'], 'internal'],
    ['vad', ['vad'], 'internal'],
    ['diarization', ['diarization'], 'internal'],
  ])('should refuse %s', (_name, post_process, fragment) => {
    const error = expectInvalid(() => parseWith({ post_process, ...NEEDS }), 'post_process');
    expect(error.message).toContain(fragment);
  });

  it('should list the valid types for an unknown name', () => {
    const error = expectInvalid(() => parseWith({ post_process: ['poem'] }), 'post_process');
    for (const type of POST_PROCESS_TYPE_NAMES) expect(error.message).toContain(type);
  });

  it('should refuse a non-empty list when no language model is configured', () => {
    const error = expectInvalid(() => parseWith({ post_process: ['summary'] }, { llmConfigured: false }), 'post_process');
    expect(error.message).toMatch(/language model.*none is configured/);
  });

  it('should accept an empty list or null when no language model is configured', () => {
    expect(parseWith({ post_process: [] }, { llmConfigured: false }).post_process).toEqual([]);
    expect(parseWith({ post_process: null }, { llmConfigured: false }).post_process).toBeNull();
  });
});
