import { describe, expect, it } from 'vitest';
import type { Transcript, TranscriptSegment } from '../../contract/output/transcript-model.ts';
import { DEFAULT_TEXT_OPTIONS, formatPause, renderText } from './render-text.ts';

function seg(start: number, end: number, text: string, speaker: string | null = 'SPEAKER_1'): TranscriptSegment {
  return { start, end, text, speaker, language: 'en', words: [] };
}

function model(segments: TranscriptSegment[]): Transcript {
  return { source: { length: 100, format: 'wav' }, segments, vad: [], language: 'en', languages: [], speakers: [] };
}

const all = { speakers: true, timestamps: true, pauses: true };

describe('renderText', () => {
  it('should write time label, speaker label and text on one line per segment', () => {
    expect(renderText(model([seg(1.2, 4.5, 'Hello.')]))).toBe('[00:00:01.20 - 00:00:04.50] SPEAKER_1: Hello.\n');
  });

  it('should leave out the speaker part when the speaker is null', () => {
    expect(renderText(model([seg(1, 2, 'Hi.', null)]))).toBe('[00:00:01.00 - 00:00:02.00] Hi.\n');
  });

  it('should leave out parts whose switch is off', () => {
    const m = model([seg(1, 2, 'Hi.')]);
    expect(renderText(m, { ...DEFAULT_TEXT_OPTIONS, timestamps: false })).toBe('SPEAKER_1: Hi.\n');
    expect(renderText(m, { ...DEFAULT_TEXT_OPTIONS, speakers: false })).toBe('[00:00:01.00 - 00:00:02.00] Hi.\n');
    expect(renderText(m, { speakers: false, timestamps: false, pauses: false })).toBe('Hi.\n');
  });

  it('should mark a pause only when the silence is longer than 2 s', () => {
    const exactly = model([seg(0, 1, 'A.'), seg(3, 4, 'B.')]);
    expect(renderText(exactly, all)).not.toContain('pause');
    const longer = model([seg(0, 1, 'A.'), seg(3.01, 4, 'B.')]);
    expect(renderText(longer, all)).toBe(
      '[00:00:00.00 - 00:00:01.00] SPEAKER_1: A.\n(pause 2.0 s)\n[00:00:03.01 - 00:00:04.00] SPEAKER_1: B.\n',
    );
  });

  it('should measure pauses from the latest end so far, so overlaps are no pause', () => {
    const m = model([seg(0, 10, 'Long.'), seg(1, 2, 'Short.', 'SPEAKER_2'), seg(11, 12, 'Next.')]);
    expect(renderText(m, all)).not.toContain('pause');
  });

  it('should not mark pauses when the switch is off', () => {
    expect(renderText(model([seg(0, 1, 'A.'), seg(10, 11, 'B.')]))).not.toContain('pause');
  });

  it('should clean whitespace and skip segments without text', () => {
    const m = model([seg(0, 1, '  two\nlines  '), seg(1, 2, ' \n ')]);
    expect(renderText(m, { speakers: false, timestamps: false, pauses: false })).toBe('two lines\n');
  });

  it('should give an empty string without speech (spec 2.3.6)', () => {
    expect(renderText(model([]), all)).toBe('');
  });

  it('should round pause markers to one decimal', () => {
    expect(formatPause(3.44)).toBe('(pause 3.4 s)');
    expect(formatPause(3.45)).toBe('(pause 3.5 s)');
    expect(formatPause(120)).toBe('(pause 120.0 s)');
  });
});
