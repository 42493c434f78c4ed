import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkByTokens } from './chunk-by-tokens.ts';
import { countTokens } from './count-tokens.ts';

const chunkTokens = (chunk: readonly string[]) => chunk.reduce((sum, line) => sum + countTokens(line) + 1, 0);

describe('countTokens', () => {
  it('should count tokens with the o200k_base tokenizer, not characters', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('Hello world')).toBe(2);
    expect(countTokens('internationalization')).toBeLessThan('internationalization'.length / 2);
  });
});

describe('chunkByTokens', () => {
  it('should keep everything in one chunk when it fits', () => {
    expect(chunkByTokens(['a b', 'c d'], 100)).toEqual([['a b', 'c d']]);
    expect(chunkByTokens([], 100)).toEqual([]);
  });

  it('should break between lines so that every chunk fits the budget', () => {
    const lines = Array.from(
      { length: 50 },
      (_, i) => `[00:00:${String(i).padStart(2, '0')}] SPEAKER_1: sentence number ${i} of the test.`,
    );
    const chunks = chunkByTokens(lines, 60);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.flat()).toEqual(lines);
    for (const chunk of chunks) expect(chunkTokens(chunk)).toBeLessThanOrEqual(60);
  });

  it('should split a line that is over the budget by itself at spaces', () => {
    const line = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkByTokens([line], 40);
    expect(chunks.flat().join(' ')).toBe(line);
    for (const chunk of chunks) expect(chunkTokens(chunk)).toBeLessThanOrEqual(40);
  });

  it('should split text without spaces by characters', () => {
    const line = '这是一个没有空格的很长的句子'.repeat(30);
    const chunks = chunkByTokens([line], 40);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flat().join('')).toBe(line);
    for (const chunk of chunks) expect(chunkTokens(chunk)).toBeLessThanOrEqual(40);
  });

  it('should never lose, reorder or overfill (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 120 }).filter((s) => s.trim() === s && !s.includes('  ') && s !== ''),
          { maxLength: 30 },
        ),
        fc.integer({ min: 8, max: 80 }),
        (lines, budget) => {
          const chunks = chunkByTokens(lines, budget);
          for (const chunk of chunks) expect(chunkTokens(chunk)).toBeLessThanOrEqual(budget);
          const joined = chunks.flat().join('');
          expect(joined.replace(/ /gu, '')).toBe(lines.join('').replace(/ /gu, ''));
        },
      ),
      { numRuns: 200 },
    );
  });
});
