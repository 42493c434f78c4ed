import Parser from 'srt-parser-2';
import { describe, expect, it } from 'vitest';
import { MULTI_SPEAKER_TRANSCRIPT, ONE_SPEAKER_TRANSCRIPT, TRANSCRIPT_FIXTURES } from './__fixtures__/transcripts.ts';
import { listSrtCues, renderSrt } from './render-srt.ts';

describe('renderSrt', () => {
  for (const [name, model] of Object.entries(TRANSCRIPT_FIXTURES)) {
    it(`should round-trip the ${name} transcript through srt-parser-2`, () => {
      const cues = listSrtCues(model);
      const parsed = new Parser().fromSrt(renderSrt(model));
      expect(parsed).toHaveLength(cues.length);
      parsed.forEach((item, i) => {
        const cue = cues[i]!;
        expect(item.id).toBe(String(i + 1));
        expect(Math.abs(item.startSeconds - cue.start)).toBeLessThanOrEqual(0.0005 + 1e-9);
        expect(Math.abs(item.endSeconds - cue.end)).toBeLessThanOrEqual(0.0005 + 1e-9);
        expect(item.text).toBe(cue.lines.join('\n'));
      });
    });
  }

  it('should give an empty string for a recording without speech', () => {
    expect(renderSrt(TRANSCRIPT_FIXTURES.empty!)).toBe('');
  });

  it('should separate cues by one blank line and end with a single newline', () => {
    const srt = renderSrt(ONE_SPEAKER_TRANSCRIPT);
    const blocks = srt.split('\n\n');
    expect(blocks).toHaveLength(listSrtCues(ONE_SPEAKER_TRANSCRIPT).length);
    expect(srt.endsWith('.\n')).toBe(true);
    for (const block of blocks) {
      expect(block.split('\n')[1]).toMatch(/^\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}$/);
    }
  });

  it('should prefix speaker labels only when there is more than one speaker', () => {
    expect(renderSrt(ONE_SPEAKER_TRANSCRIPT)).not.toContain('SPEAKER_1:');
    for (const cue of listSrtCues(MULTI_SPEAKER_TRANSCRIPT)) {
      expect(cue.lines[0]).toMatch(/^SPEAKER_\d+: /);
    }
  });
});
