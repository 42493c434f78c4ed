import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../../contract/validation/prediction-input.ts';
import { EMPTY_TRANSCRIPT, ONE_SPEAKER_TRANSCRIPT } from './__fixtures__/transcripts.ts';
import { renderTranscript } from './render-transcript.ts';

describe('renderTranscript', () => {
  it('should give an object for json and json2 and a string for text, srt and lrc (spec 2.3.1)', () => {
    const kinds = Object.fromEntries(OUTPUT_FORMATS.map((format) => [format, typeof renderTranscript(ONE_SPEAKER_TRANSCRIPT, format)]));
    expect(kinds).toEqual({ json: 'object', json2: 'object', text: 'string', srt: 'string', lrc: 'string' });
  });

  it('should give empty strings and empty segments without speech (spec 2.3.6)', () => {
    expect(renderTranscript(EMPTY_TRANSCRIPT, 'text')).toBe('');
    expect(renderTranscript(EMPTY_TRANSCRIPT, 'srt')).toBe('');
    expect(renderTranscript(EMPTY_TRANSCRIPT, 'lrc')).toBe('');
    expect(renderTranscript(EMPTY_TRANSCRIPT, 'json').segments).toEqual([]);
    expect(renderTranscript(EMPTY_TRANSCRIPT, 'json2').segments).toEqual([]);
  });
});
