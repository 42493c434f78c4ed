import { LineType, parse } from 'clrc';
import type { LyricLine } from 'clrc';
import { describe, expect, it } from 'vitest';
import { LONG_TRANSCRIPT, TRANSCRIPT_FIXTURES } from './__fixtures__/transcripts.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { LRC_CLEAR_AFTER_SECONDS, listLrcCues, renderLrc } from './render-lrc.ts';

/** The lines renderLrc should write, as [seconds, content]. */
function expectedLines(model: Transcript): [number, string][] {
  const cues = listLrcCues(model);
  return cues.flatMap((cue, i): [number, string][] => {
    const next = cues[i + 1];
    const clear = next === undefined || next.start - cue.end > LRC_CLEAR_AFTER_SECONDS;
    return clear
      ? [
          [cue.start, cue.lines.join(' ')],
          [cue.end, ''],
        ]
      : [[cue.start, cue.lines.join(' ')]];
  });
}

function lyricLines(lrc: string): LyricLine[] {
  return parse(lrc).filter((line): line is LyricLine => line.type === LineType.LYRIC);
}

describe('renderLrc', () => {
  for (const [name, model] of Object.entries(TRANSCRIPT_FIXTURES)) {
    it(`should round-trip the ${name} transcript through clrc`, () => {
      const lrc = renderLrc(model);
      const parsed = lyricLines(lrc);
      const expected = expectedLines(model);
      expect(parsed).toHaveLength(expected.length);
      expect(
        parse(lrc)
          .filter((line) => line.type === LineType.INVALID)
          .map((line) => line.raw),
      ).toEqual(['']); // only the empty string after the final newline
      parsed.forEach((line, i) => {
        const [seconds, content] = expected[i]!;
        expect(Math.abs(line.startMillisecond / 1000 - seconds)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(line.content).toBe(content);
      });
    });
  }

  it('should write minutes past 59 that clrc reads back', () => {
    const lrc = renderLrc(LONG_TRANSCRIPT);
    expect(lrc).toContain('[75:03.20]Welcome back to the second part.\n');
    const line = lyricLines(lrc).find((l) => l.content.startsWith('Welcome back'));
    expect(line?.startMillisecond).toBe(4_503_200);
    expect(lyricLines('[125:01.00]x')[0]?.startMillisecond).toBe(7_501_000);
  });

  it('should give an empty string for a recording without speech', () => {
    expect(renderLrc(TRANSCRIPT_FIXTURES.empty!)).toBe('');
  });
});
