import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitMessage, TELEGRAM_MESSAGE_LIMIT } from './split-message.ts';

describe('splitMessage', () => {
  it('should keep a short text as one message', () => {
    expect(splitMessage('  Hello there.  ')).toEqual(['Hello there.']);
    expect(splitMessage('   ')).toEqual([]);
  });

  it('should cut at the last sentence end that fits', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const text = sentence.repeat(200); // 9000 characters
    const parts = splitMessage(text);
    expect(parts.length).toBe(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
      expect(part.endsWith('dog.')).toBe(true);
      expect(part.startsWith('The quick')).toBe(true);
    }
  });

  it('should cut at a space when a sentence end would leave a tiny message', () => {
    const text = `Short. ${'word '.repeat(40)}`;
    const parts = splitMessage(text, 100);
    expect(parts[0]!.length).toBeGreaterThan(50);
    expect(parts.every((part) => part.length <= 100)).toBe(true);
  });

  it('should cut an unbroken run without splitting a surrogate pair', () => {
    const parts = splitMessage('😀'.repeat(10), 5);
    expect(parts.join('')).toBe('😀'.repeat(10));
    for (const part of parts) expect(part).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it('should keep every non-space character in order within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '.', ' ', '\n', '!', '😀'), maxLength: 600 }),
        fc.integer({ min: 4, max: 80 }),
        (text, limit) => {
          const parts = splitMessage(text, limit);
          for (const part of parts) {
            expect(part.length).toBeGreaterThan(0);
            expect(part.length).toBeLessThanOrEqual(limit);
          }
          expect(parts.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        },
      ),
    );
  });
});
