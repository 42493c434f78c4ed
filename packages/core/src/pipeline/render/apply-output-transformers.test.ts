import { describe, expect, it } from 'vitest';
import { MULTI_SPEAKER_TRANSCRIPT, ONE_SPEAKER_TRANSCRIPT } from './__fixtures__/transcripts.ts';
import { applyOutputTransformers } from './apply-output-transformers.ts';
import { renderJson } from './render-json.ts';
import { renderSrt } from './render-srt.ts';
import { renderText } from './render-text.ts';

const noTimes = { kind: 'text', speakers: true, timestamps: false, pauses: false } as const;

describe('applyOutputTransformers', () => {
  it('should render output_format when there is no transformer', () => {
    const base = { model: ONE_SPEAKER_TRANSCRIPT, postProcess: null, results: {}, transformer: null };
    expect(applyOutputTransformers({ ...base, format: 'srt' })).toBe(renderSrt(ONE_SPEAKER_TRANSCRIPT));
    expect(applyOutputTransformers({ ...base, format: 'json' })).toEqual(renderJson(ONE_SPEAKER_TRANSCRIPT));
  });

  it('should give plain text with the switches, whatever output_format is', () => {
    const output = applyOutputTransformers({
      model: MULTI_SPEAKER_TRANSCRIPT,
      format: 'json2',
      postProcess: null,
      results: {},
      transformer: noTimes,
    });
    expect(output).toBe(renderText(MULTI_SPEAKER_TRANSCRIPT, noTimes));
    expect(output).toMatch(/^SPEAKER_1: Hi everyone, thanks for joining\.\n/);
  });

  it('should put the text in the transcript member and keep the results when post_process is a list', () => {
    const output = applyOutputTransformers({
      model: MULTI_SPEAKER_TRANSCRIPT,
      format: 'json',
      postProcess: ['speaker_names'],
      results: { speaker_names: { SPEAKER_1: 'Ann' } },
      transformer: noTimes,
    });
    expect(output).toEqual({
      transcript: renderText(MULTI_SPEAKER_TRANSCRIPT, noTimes),
      results: { speaker_names: { SPEAKER_1: 'Ann' } },
    });
  });
});
