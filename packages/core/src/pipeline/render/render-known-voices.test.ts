import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { renderTranscript } from './render-transcript.ts';

/** Two speakers, the first named after a known voice (pipeline/voices/), the second unknown. */
const named: Transcript = {
  source: { length: 6, format: 'wav' },
  segments: [
    { start: 0, end: 2, text: 'good morning', speaker: 'Ann Lee', language: 'en', words: [] },
    { start: 2.5, end: 5, text: 'hello there', speaker: 'SPEAKER_2', language: 'en', words: [] },
  ],
  vad: [{ start: 0, end: 5 }],
  language: 'en',
  languages: [],
  speakers: [
    { label: 'Ann Lee', duration: 2 },
    { label: 'SPEAKER_2', duration: 2.5 },
  ],
  voices: [{ label: 'Ann Lee', voiceId: 'voice_abc', similarity: 0.61 }],
};

describe('known voice names in every output format', () => {
  it('should carry the name in json and json2, with speaker_voices listing the match', () => {
    const json = renderTranscript(named, 'json');
    expect(json.segments.map((s) => s.speaker)).toEqual(['Ann Lee', 'SPEAKER_2']);
    expect(json.speaker_voices).toEqual([{ label: 'Ann Lee', voice_id: 'voice_abc', similarity: 0.61 }]);
    const json2 = renderTranscript(named, 'json2');
    expect(json2.speakers.map((s) => s.label)).toEqual(['Ann Lee', 'SPEAKER_2']);
    expect(json2.speaker_voices).toHaveLength(1);
  });

  it('should leave speaker_voices out when known voices were not asked for (json keeps its four members)', () => {
    const { voices: _voices, ...plain } = named;
    expect(Object.keys(renderTranscript(plain, 'json'))).toEqual(['source', 'segments', 'vad', 'language']);
  });

  it.each(['text', 'srt', 'lrc'] as const)('should show the name in %s', (format) => {
    const out = renderTranscript(named, format);
    expect(out).toContain('Ann Lee');
    expect(out).toContain('SPEAKER_2');
  });
});
