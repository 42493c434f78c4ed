import { describe, expect, it } from 'vitest';
import { formatUsage } from './format-usage.ts';
import { english, russian } from './test-support/english-texts.ts';

const places = [{ namespace: 'bot', predictions: 6, succeeded: 3, audioSeconds: 330 }];
const charged = { window_days: 27, since: '', predictions: 3, audio_seconds_charged: 96, amount_charged: 0, free_repeats: 1 };
const uncharged = {
  canceled: { count: 2, audioSeconds: 0 },
  failed: { count: 1, audioSeconds: 12 },
  freeRepeats: { count: 1, audioSeconds: 96 },
};

describe('the /usage reply', () => {
  it('should say what was not charged and why, so the minutes add up', () => {
    expect(formatUsage(places, charged, english, uncharged)).toBe(
      [
        'Your usage so far:',
        '• In this chat: 6 recordings (3 done), 5.5 min of audio',
        'Charged in the last 27 days: 1.6 min of audio.',
        'Not charged in that time: 2 canceled recordings; 1 recording that failed (0.2 min); 1 repeat of a recording already paid for, taken from the cache (1.6 min).',
      ].join('\n'),
    );
  });

  it('should write minutes with a decimal comma in Russian, and leave the line out when everything was charged', () => {
    const none = {
      canceled: { count: 0, audioSeconds: 0 },
      failed: { count: 0, audioSeconds: 0 },
      freeRepeats: { count: 0, audioSeconds: 0 },
    };
    const text = formatUsage(places, { ...charged, amount_charged: 1.5 }, russian, none);
    expect(text).toBe(
      ['Ваш расход:', '• В этом чате: 6 записей (готово: 3), 5,5 мин звука', 'Списано за последние 27 дн.: 1,6 мин звука, сумма 1,5.'].join(
        '\n',
      ),
    );
  });
});
