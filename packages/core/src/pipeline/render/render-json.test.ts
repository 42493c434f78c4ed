import { describe, expect, it } from 'vitest';
import { EMPTY_TRANSCRIPT, LONG_TRANSCRIPT, MULTI_SPEAKER_TRANSCRIPT } from './__fixtures__/transcripts.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { renderJson } from './render-json.ts';
import { renderJson2 } from './render-json2.ts';

const noisy: Transcript = {
  source: { length: 10.00049, format: 'wav' },
  segments: [
    {
      start: 0.1 + 0.2,
      end: 1.23456,
      text: ' raw text ',
      speaker: null,
      language: null,
      words: [{ start: 0.30001, end: 0.9996, text: 'raw', confidence: null }],
    },
  ],
  vad: [{ start: 0.2999, end: 1.3004 }],
  language: 'fr',
  languages: [],
  speakers: [],
};

describe('renderJson', () => {
  it('should write the confidence members after words, in order, only for a measured segment', () => {
    const measured: Transcript = {
      ...noisy,
      segments: [{ ...noisy.segments[0]!, avgLogprob: null, compressionRatio: 0.9, noSpeechProb: 0.82, flags: ['outside_speech'] }],
    };
    const [segment] = renderJson(measured).segments;
    expect(Object.keys(segment!)).toEqual([
      'start',
      'end',
      'text',
      'speaker',
      'language',
      'words',
      'avg_logprob',
      'compression_ratio',
      'no_speech_prob',
      'flags',
    ]);
    expect(segment).toMatchObject({ avg_logprob: null, compression_ratio: 0.9, no_speech_prob: 0.82, flags: ['outside_speech'] });
    expect(Object.keys(renderJson(noisy).segments[0]!)).not.toContain('flags'); // a transcript made before the measures
  });

  it('should have exactly source, segments, vad and language, times rounded to ms', () => {
    expect(renderJson(noisy)).toEqual({
      source: { length: 10, format: 'wav' },
      segments: [
        {
          start: 0.3,
          end: 1.235,
          text: ' raw text ',
          speaker: null,
          language: null,
          words: [{ start: 0.3, end: 1, text: 'raw', confidence: null }],
        },
      ],
      vad: [{ start: 0.3, end: 1.3 }],
      language: 'fr',
    });
  });

  it('should give empty lists and a null language without speech', () => {
    expect(renderJson(EMPTY_TRANSCRIPT)).toEqual({ source: { length: 12.5, format: 'wav' }, segments: [], vad: [], language: null });
  });
});

describe('renderJson2', () => {
  it('should keep source, segments and vad of json and add languages and speakers', () => {
    const json = renderJson(MULTI_SPEAKER_TRANSCRIPT);
    const json2 = renderJson2(MULTI_SPEAKER_TRANSCRIPT);
    expect(Object.keys(json2)).toEqual(['source', 'segments', 'vad', 'languages', 'speakers']);
    expect([json2.source, json2.segments, json2.vad]).toEqual([json.source, json.segments, json.vad]);
    expect(json2.languages).toEqual(MULTI_SPEAKER_TRANSCRIPT.languages);
    expect(json2.speakers).toEqual(MULTI_SPEAKER_TRANSCRIPT.speakers);
  });

  it('should give one language with the table name and null probability and duration when only the main one is known', () => {
    expect(renderJson2(LONG_TRANSCRIPT).languages).toEqual([{ code: 'en', name: 'English', probability: null, duration: null }]);
    expect(renderJson2({ ...noisy, language: 'ht' }).languages).toEqual([
      { code: 'ht', name: 'Haitian creole', probability: null, duration: null },
    ]);
    expect(renderJson2({ ...noisy, language: 'xx' }).languages).toEqual([{ code: 'xx', name: 'xx', probability: null, duration: null }]);
  });

  it('should sum talk time from the segments when the model has no speaker list', () => {
    const model = { ...MULTI_SPEAKER_TRANSCRIPT, speakers: [] };
    expect(renderJson2(model).speakers).toEqual([
      { label: 'SPEAKER_1', duration: 5.15 },
      { label: 'SPEAKER_2', duration: 7.2 },
      { label: 'SPEAKER_3', duration: 14.5 },
    ]);
    expect(renderJson2(LONG_TRANSCRIPT).speakers).toEqual([]);
  });

  it('should give empty languages and speakers without speech', () => {
    expect(renderJson2(EMPTY_TRANSCRIPT)).toMatchObject({ segments: [], vad: [], languages: [], speakers: [] });
  });
});
