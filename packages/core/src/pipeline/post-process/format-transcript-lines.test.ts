import { describe, expect, it } from 'vitest';
import { EMPTY_TRANSCRIPT, LONG_TRANSCRIPT, ONE_SPEAKER_TRANSCRIPT } from '../render/__fixtures__/transcripts.ts';
import { formatHms, formatTranscriptLines } from './format-transcript-lines.ts';

describe('formatTranscriptLines', () => {
  it('should write timed, numbered and plain lines with cleaned text', () => {
    const texts = (style: 'timed' | 'numbered' | 'plain') => formatTranscriptLines(ONE_SPEAKER_TRANSCRIPT, style).map((line) => line.text);
    expect(texts('timed')[2]).toBe('[00:00:21] SPEAKER_1: Questions are welcome at the end.');
    expect(texts('numbered')[0]).toBe('#1 [00:00:01] SPEAKER_1: Good morning, and welcome to the weekly update.');
    expect(texts('plain')[0]).toBe('SPEAKER_1: Good morning, and welcome to the weekly update.');
  });

  it('should leave the speaker out when diarization did not run, and keep real starts', () => {
    const [first, second] = formatTranscriptLines(LONG_TRANSCRIPT, 'timed');
    expect(first!.text).toBe('[00:00:05] Recording starts now.');
    expect(second!.start).toBe(3598.5);
    expect(second!.text.startsWith('[00:59:58] We are crossing')).toBe(true);
  });

  it('should end the timed and numbered lines of a flagged segment with its flags, never the plain ones', () => {
    const flagged = {
      ...ONE_SPEAKER_TRANSCRIPT,
      segments: ONE_SPEAKER_TRANSCRIPT.segments.map((segment, i) => ({
        ...segment,
        flags: i === 2 ? (['low_logprob', 'no_speech'] as const).slice() : [],
      })),
    };
    const texts = (style: 'timed' | 'numbered' | 'plain') => formatTranscriptLines(flagged, style).map((line) => line.text);
    expect(texts('timed')[2]).toBe('[00:00:21] SPEAKER_1: Questions are welcome at the end. [doubtful: low_logprob, no_speech]');
    expect(texts('numbered')[2]).toBe('#3 [00:00:21] SPEAKER_1: Questions are welcome at the end. [doubtful: low_logprob, no_speech]');
    expect(texts('timed')[0]).toBe('[00:00:01] SPEAKER_1: Good morning, and welcome to the weekly update.');
    expect(texts('plain')[2]).toBe('SPEAKER_1: Questions are welcome at the end.');
  });

  it('should give no lines without speech', () => {
    expect(formatTranscriptLines(EMPTY_TRANSCRIPT, 'timed')).toEqual([]);
  });
});

describe('formatHms', () => {
  it('should round down to whole seconds and always show hours', () => {
    expect(formatHms(3723.9)).toBe('01:02:03');
    expect(formatHms(0.5)).toBe('00:00:00');
    expect(formatHms(-3)).toBe('00:00:00');
  });
});
