import { describe, expect, it } from 'vitest';
import {
  INTERNAL_POST_PROCESS_NAMES,
  isPostProcessType,
  OUTPUT_FORMAT_LOOKALIKES,
  POST_PROCESS_TYPE_NAMES,
  POST_PROCESS_TYPES,
} from './post-process-types.ts';
import { OUTPUT_FORMATS } from '../validation/prediction-input.ts';

describe('POST_PROCESS_TYPES (spec 2.4)', () => {
  it('should hold the 18 types in the order of the names list', () => {
    expect(POST_PROCESS_TYPES).toHaveLength(18);
    expect(POST_PROCESS_TYPES.map((entry) => entry.type)).toEqual([...POST_PROCESS_TYPE_NAMES]);
  });

  it('should keep the result texts of the spec', () => {
    expect(POST_PROCESS_TYPES.find((entry) => entry.type === 'lecture_notes')?.result).toBe('Lecture notes, in Russian.');
  });
});

describe('INTERNAL_POST_PROCESS_NAMES', () => {
  it('should not overlap the types', () => {
    for (const name of INTERNAL_POST_PROCESS_NAMES) expect(isPostProcessType(name)).toBe(false);
  });

  it('should contain every output format, srt and lrc included (spec 2.2)', () => {
    expect([...OUTPUT_FORMAT_LOOKALIKES].sort()).toEqual([...OUTPUT_FORMATS].sort());
    for (const format of OUTPUT_FORMATS) expect(INTERNAL_POST_PROCESS_NAMES.has(format)).toBe(true);
  });
});

describe('isPostProcessType', () => {
  it.each([
    ['summary', true],
    ['speaker_names', true],
    ['Summary', false],
    [' summary', false],
    ['srt', false],
    ['toString', false],
  ])('should answer %j with %s', (name, expected) => {
    expect(isPostProcessType(name)).toBe(expected);
  });
});
