import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';

const ZERO_TIMES = ['0:00', '00:00', '0:00:00', '00:00:00', '00:0:00', '0:0:00'];

describe('cut_start (spec 2.2, 4.5 rule 4)', () => {
  it.each([undefined, null, 0, -0, '0', '0.0', '', ...ZERO_TIMES])('should accept %j', (cut_start) => {
    expect(() => parseWith({ cut_start })).not.toThrow();
  });

  it.each([
    5,
    0.5,
    -1,
    '5',
    '10',
    '00',
    '0.00',
    '-0',
    ' 0',
    '0 ',
    '+0',
    '0:0',
    '000:00',
    '00:00.0',
    '0:00:00:00',
    '00:01',
    '0:01',
    '1:00:00',
    '01:00',
    '-1',
    'abc',
    true,
    false,
    {},
    [],
    [0],
  ])('should refuse %j before download, saying trimming is not supported', (cut_start) => {
    const error = expectInvalid(() => parseWith({ cut_start }), 'cut_start');
    expect(error.message).toContain('trimming is not available');
    expect(error.message).toContain('"0.0"');
  });
});

describe('cut_duration (spec 2.2, 4.5 rule 4)', () => {
  it.each([undefined, null, -1, -1.0, '-1', '-1.0', '', ...ZERO_TIMES])('should accept %j', (cut_duration) => {
    expect(() => parseWith({ cut_duration })).not.toThrow();
  });

  it.each([0, 5, 10, -2, -1.5, '0', '5', '10', '-1.00', ' -1', '-01', '00:01', '1:00:00', '0:0', 'abc', true, {}, [-1]])(
    'should refuse %j before download, saying trimming is not supported',
    (cut_duration) => {
      const error = expectInvalid(() => parseWith({ cut_duration }), 'cut_duration');
      expect(error.message).toContain('trimming is not available');
      expect(error.message).toContain('"-1.0"');
    },
  );
});
