import { describe, expect, it } from 'vitest';
import { formatClockTime, formatLrcTime, formatSrtTime, roundSeconds, toMilliseconds } from './format-timestamps.ts';

describe('format-timestamps', () => {
  describe('roundSeconds', () => {
    it('should round to the millisecond and clamp negatives to 0', () => {
      expect(roundSeconds(1.23456)).toBe(1.235);
      expect(roundSeconds(0.1 + 0.2)).toBe(0.3);
      expect(roundSeconds(-0.5)).toBe(0);
      expect(toMilliseconds(3723.4564)).toBe(3_723_456);
    });
  });

  describe('formatClockTime', () => {
    it('should always show hours and hundredths', () => {
      expect(formatClockTime(0)).toBe('00:00:00.00');
      expect(formatClockTime(1.2)).toBe('00:00:01.20');
      expect(formatClockTime(3723.456)).toBe('01:02:03.46');
      expect(formatClockTime(360_000)).toBe('100:00:00.00');
    });

    it('should carry a rounded-up hundredth into seconds and minutes', () => {
      expect(formatClockTime(59.999)).toBe('00:01:00.00');
    });
  });

  describe('formatSrtTime', () => {
    it('should write HH:MM:SS,mmm', () => {
      expect(formatSrtTime(0)).toBe('00:00:00,000');
      expect(formatSrtTime(4.459)).toBe('00:00:04,459');
      expect(formatSrtTime(3723.456)).toBe('01:02:03,456');
      expect(formatSrtTime(3599.9996)).toBe('01:00:00,000');
    });
  });

  describe('formatLrcTime', () => {
    it('should write total minutes, which may exceed 59', () => {
      expect(formatLrcTime(1.2)).toBe('00:01.20');
      expect(formatLrcTime(4503.2)).toBe('75:03.20');
      expect(formatLrcTime(7501)).toBe('125:01.00');
    });
  });
});
