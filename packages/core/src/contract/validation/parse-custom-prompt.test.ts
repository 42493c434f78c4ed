import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';
import { MAX_CUSTOM_PROMPT_CHARS } from './custom-prompt-schema.ts';

const CUSTOM = { post_process: ['custom'] };
const MAX = MAX_CUSTOM_PROMPT_CHARS;

describe('custom_prompt with custom requested (spec 2.2, 4.5 rules 2 and 5, 8)', () => {
  it.each([
    ['one character', 'x'],
    ['padded text, kept as sent', '  List the jokes.  '],
    ['8192 characters', 'a'.repeat(MAX)],
    ['8192 astral characters (code points)', '😀'.repeat(MAX)],
  ])('should accept %s', (_name, custom_prompt) => {
    expect(parseWith({ ...CUSTOM, custom_prompt }).custom_prompt).toBe(custom_prompt);
  });

  it.each([
    ['absent', undefined, 'required'],
    ['null', null, 'required'],
    ['empty', '', 'empty'],
    ['whitespace only', ' \n\t ', 'empty'],
    ['8193 characters', 'a'.repeat(MAX + 1), 'at most 8192'],
    ['8193 astral characters', '😀'.repeat(MAX + 1), 'at most 8192'],
    ['a number', 1, 'must be a text'],
    ['a list', ['x'], 'must be a text'],
  ])('should refuse %s', (_name, custom_prompt, fragment) => {
    const error = expectInvalid(() => parseWith({ ...CUSTOM, custom_prompt }), 'custom_prompt');
    expect(error.message).toContain(fragment);
  });
});

describe('custom_prompt without custom', () => {
  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['whitespace', '  '],
    ['a prompt', 'x'],
    ['8192 characters', 'a'.repeat(MAX)],
  ])('should accept and ignore %s', (_name, custom_prompt) => {
    expect(parseWith({ post_process: ['summary'], custom_prompt }).custom_prompt).toBeNull();
    expect(parseWith({ custom_prompt }).custom_prompt).toBeNull();
  });

  it.each([
    ['8193 characters', 'a'.repeat(MAX + 1)],
    ['a number', 5],
    ['an object', {}],
  ])('should still refuse %s', (_name, custom_prompt) => {
    expectInvalid(() => parseWith({ custom_prompt }), 'custom_prompt');
  });
});
