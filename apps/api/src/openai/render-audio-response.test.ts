import { describe, expect, it } from 'vitest';
import { WebVTTParser } from 'webvtt-parser';
import type { Transcript } from '@transcribe/core';
import {
  answerOfTranscript,
  convertSrtToVtt,
  openAiLanguageName,
  renderAudioResponse,
  segmentsOfSrt,
  type VerboseTranscription,
} from './render-audio-response.ts';

const word = (text: string, start: number, end: number, confidence: number | null = 0.8) => ({ text, start, end, confidence });

const TRANSCRIPT: Transcript = {
  source: { length: 12.5, format: 'wav' },
  segments: [
    {
      start: 0.5,
      end: 2.25,
      text: 'fish & chips <now>',
      speaker: 'SPEAKER_1',
      language: 'en',
      words: [word('fish', 0.5, 0.9), word('&', 1, 1.1), word('chips', 1.2, 1.6), word('<now>', 1.7, 2.25)],
      avgLogprob: -0.31,
      compressionRatio: 0.95,
      noSpeechProb: 0.04,
      flags: [],
    },
    {
      start: 3,
      end: 4.5,
      text: 'a --> b',
      speaker: 'SPEAKER_2',
      language: 'en',
      words: [word('a', 3, 3.5, null), word('-->', 3.6, 4), word('b', 4.1, 4.5, null)],
    },
  ],
  vad: [{ start: 0.4, end: 4.6 }],
  language: 'en',
  languages: [],
  speakers: [],
};

describe('renderAudioResponse: OpenAI response formats of a transcript', () => {
  const answer = answerOfTranscript(TRANSCRIPT);

  it('should answer json as {text} and text with a newline, both the segments joined', () => {
    expect(renderAudioResponse(answer, 'json', ['segment'])).toEqual({
      contentType: 'application/json',
      body: JSON.stringify({ text: 'fish & chips <now> a --> b' }),
    });
    expect(renderAudioResponse(answer, 'text', ['segment'])).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: 'fish & chips <now> a --> b\n',
    });
  });

  it("should answer verbose_json with OpenAI's members, the language by name, segments and words as asked", () => {
    const both = JSON.parse(renderAudioResponse(answer, 'verbose_json', ['segment', 'word']).body) as VerboseTranscription;
    expect(both).toMatchObject({ task: 'transcribe', language: 'english', duration: 12.5, text: 'fish & chips <now> a --> b' });
    expect(both.segments![0]).toMatchObject({
      id: 0,
      seek: 50,
      start: 0.5,
      end: 2.25,
      text: ' fish & chips <now>',
      tokens: [],
      temperature: 0,
      avg_logprob: -0.31,
      compression_ratio: 0.95,
      no_speech_prob: 0.04,
      speaker: 'SPEAKER_1',
      flags: [],
    });
    // a segment never measured: null scores (no placeholder 0), its text's ratio, no flags member
    expect(both.segments![1]).toMatchObject({ avg_logprob: null, no_speech_prob: null });
    expect(both.segments![1]!.compression_ratio).toBeGreaterThan(0);
    expect(both.segments![1]).not.toHaveProperty('flags');
    expect(both.words!.map((w) => w.word)).toEqual(['fish', '&', 'chips', '<now>', 'a', '-->', 'b']);
    expect(both.words!.map((w) => w.probability)).toEqual([0.8, 0.8, 0.8, 0.8, null, 0.8, null]);
    const wordsOnly = JSON.parse(renderAudioResponse(answer, 'verbose_json', ['word']).body) as VerboseTranscription;
    expect(wordsOnly.segments).toBeUndefined();
    expect(wordsOnly.words).toHaveLength(7);
    const segmentsOnly = JSON.parse(renderAudioResponse(answer, 'verbose_json', ['segment']).body) as VerboseTranscription;
    expect(segmentsOnly.words).toBeUndefined();
  });

  it("should answer vtt that a WebVTT parser reads without errors, with the SRT cues' times and text", () => {
    const srt = renderAudioResponse(answer, 'srt', ['segment']).body;
    const vtt = renderAudioResponse(answer, 'vtt', ['segment']);
    expect(vtt.contentType).toBe('text/plain; charset=utf-8');
    const parsed = new WebVTTParser().parse(vtt.body, 'metadata');
    expect(parsed.errors).toEqual([]);
    const cues = segmentsOfSrt(srt);
    expect(parsed.cues.map((cue) => [cue.startTime, cue.endTime])).toEqual(cues.map((cue) => [cue.start, cue.end]));
    expect(vtt.body).toContain('fish &amp; chips &lt;now&gt;');
    expect(vtt.body).not.toMatch(/\n[^\n]*-->[^\n]*-->/); // the text's arrow never forms a second timing
  });

  it('should give a header-only WebVTT file for no speech', () => {
    expect(convertSrtToVtt('')).toBe('WEBVTT\n');
    expect(new WebVTTParser().parse(convertSrtToVtt(''), 'metadata').errors).toEqual([]);
  });
});

describe('openAiLanguageName', () => {
  it('should name a language as Whisper does: the English name in lower case', () => {
    expect(openAiLanguageName('en')).toBe('english');
    expect(openAiLanguageName('yue')).toBe('cantonese');
    expect(openAiLanguageName(null)).toBe('unknown');
  });
});
