import { describe, expect, it } from 'vitest';
import { shapeOutput } from './shape-output.ts';

describe('shapeOutput', () => {
  it('should return the plain transcript when post_process is null', () => {
    expect(shapeOutput('plain text\n', null, { summary: 'ignored' })).toBe('plain text\n');
    const json = { segments: [] };
    expect(shapeOutput(json, null, {})).toBe(json);
  });

  it('should wrap the transcript with empty results when post_process is an empty list', () => {
    expect(shapeOutput('text\n', [], { summary: 'not requested' })).toEqual({ transcript: 'text\n', results: {} });
  });

  it('should keep exactly the requested results, in request order', () => {
    const output = shapeOutput({ segments: [] }, ['speaker_names', 'summary'], {
      summary: 'Short.',
      speaker_names: null,
      internal_step: 'hidden',
    });
    expect(output).toEqual({ transcript: { segments: [] }, results: { speaker_names: null, summary: 'Short.' } });
    expect(Object.keys((output as { results: object }).results)).toEqual(['speaker_names', 'summary']);
  });

  it('should keep empty results of a recording without speech (spec 2.3.6)', () => {
    expect(shapeOutput('', ['summary', 'speaker_names'], { summary: '', speaker_names: {} })).toEqual({
      transcript: '',
      results: { summary: '', speaker_names: {} },
    });
  });

  it('should leave out a requested type that has no result rather than invent one', () => {
    expect(shapeOutput('x', ['summary'], {})).toEqual({ transcript: 'x', results: {} });
  });
});
