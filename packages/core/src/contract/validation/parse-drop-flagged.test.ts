import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';

describe('drop_flagged (service extension, docs/input-rules.md)', () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    [false, undefined],
    [true, true],
  ])('should accept %s', (drop_flagged, expected) => {
    expect(parseWith({ drop_flagged }).drop_flagged).toBe(expected);
  });

  it.each([['true'], [1], ['yes'], [[true]]])('should refuse %s with a 422 naming the parameter', (drop_flagged) => {
    const error = expectInvalid(() => parseWith({ drop_flagged }), 'drop_flagged');
    expect(error.message).toContain('drop_flagged must be true, false or null');
  });
});
