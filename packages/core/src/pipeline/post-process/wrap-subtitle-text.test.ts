import { describe, expect, it } from 'vitest';
import { wrapSubtitleText } from './wrap-subtitle-text.ts';

describe('wrapSubtitleText', () => {
  it('should keep a short text on one line with its prefix', () => {
    expect(wrapSubtitleText('SPEAKER_2: ', 'Merci beaucoup.')).toEqual(['SPEAKER_2: Merci beaucoup.']);
    expect(wrapSubtitleText('', '  two\nlines  ')).toEqual(['two lines']);
  });

  it('should break a longer text into two balanced lines at a space', () => {
    const lines = wrapSubtitleText('', 'Vor allem eine kurze Notiz zur Organisation: der Veranstaltungsort hat sich geändert.');
    expect(lines).toHaveLength(2);
    expect(lines.join(' ')).toBe('Vor allem eine kurze Notiz zur Organisation: der Veranstaltungsort hat sich geändert.');
    expect(Math.abs(lines[0]!.length - lines[1]!.length)).toBeLessThan(15);
  });

  it('should count the prefix on the first line', () => {
    const [first, second] = wrapSubtitleText('SPEAKER_3: ', 'Avant cela, une note rapide sur la logistique du jour.');
    expect(first!.startsWith('SPEAKER_3: ')).toBe(true);
    expect(Math.max(first!.length, second!.length)).toBeLessThanOrEqual(42);
  });

  it('should break text without spaces by characters and never cut it', () => {
    const text = '大家好，感谢大家今天的参与，我们现在开始讨论今年秋天的计划和预算安排的具体细节问题以及其他事项';
    const lines = wrapSubtitleText('', text);
    expect(lines).toHaveLength(2);
    expect(lines.join('')).toBe(text);
  });
});
