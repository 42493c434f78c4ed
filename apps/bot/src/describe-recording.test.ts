import { describe, expect, it } from 'vitest';
import { describeRecording, formatDateTime, formatDuration } from './describe-recording.ts';
import { english, russian } from './test-support/english-texts.ts';

const now = new Date('2026-03-10T12:04:30Z');

describe('naming recordings for people', () => {
  it('should tell voice messages apart by length and when they were sent', () => {
    const voice = (seconds: number, ago: number) => ({
      fileName: 'voice.ogg',
      durationSeconds: seconds,
      sentAt: new Date(now.getTime() - ago * 1000),
    });
    const reader = { t: english, locale: 'en' };
    expect(describeRecording(voice(4.2, 40), reader, now)).toBe('Voice message, 0:04, sent 40 seconds ago');
    expect(describeRecording(voice(75, 180), reader, now)).toBe('Voice message, 1:15, sent 3 minutes ago');
    expect(describeRecording({ fileName: 'talk.mp3', durationSeconds: null, sentAt: now }, reader, now)).toBe('talk.mp3, sent now');
    expect(describeRecording(voice(75, 7200), { t: russian, locale: 'ru' }, now)).toBe('Голосовое сообщение, 1:15, прислано 2 часа назад');
  });

  it('should format lengths and dates', () => {
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(0.4)).toBe('0:00');
    expect(formatDateTime(now, 'en')).toBe('March 10, 2026 at 12:04 UTC');
    expect(formatDateTime(now, 'ru')).toBe('10 марта 2026 г. в 12:04 UTC');
  });
});
