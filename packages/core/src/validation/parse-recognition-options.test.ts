import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';
import { DOMAINS, EFFICIENCIES } from './prediction-input.ts';

describe('domain (spec 2.2)', () => {
  it.each<[unknown, unknown]>([[undefined, null], [null, null], ...DOMAINS.map((domain): [unknown, unknown] => [domain, domain])])('should accept %s', (domain, expected) => {
    expect(parseWith({ domain }).domain).toBe(expected);
  });

  it.each([['Meeting'], ['podcast'], [''], [1], [true], [['news']]])('should refuse %s, listing the values', (domain) => {
    const error = expectInvalid(() => parseWith({ domain }), 'domain');
    expect(error.message).toContain(DOMAINS.join(', '));
  });
});

describe('efficiency (spec 2.2)', () => {
  it.each<[unknown, unknown]>([[undefined, null], [null, null], ...EFFICIENCIES.map((value): [unknown, unknown] => [value, value])])('should accept %s', (efficiency, expected) => {
    expect(parseWith({ efficiency }).efficiency).toBe(expected);
  });

  it.each([['FAST'], ['slow'], [''], [0], [false]])('should refuse %s, listing the values', (efficiency) => {
    const error = expectInvalid(() => parseWith({ efficiency }), 'efficiency');
    expect(error.message).toContain('fast, balanced, accurate');
  });
});

describe('multilingual (spec 2.2)', () => {
  it.each([[undefined, null], [null, null], [true, true], [false, false]])('should accept %s', (multilingual, expected) => {
    expect(parseWith({ multilingual }).multilingual).toBe(expected);
  });

  it.each([['true'], ['false'], [''], [0], [1], [[true]], [{}]])('should refuse %s', (multilingual) => {
    expectInvalid(() => parseWith({ multilingual }), 'multilingual');
  });
});
