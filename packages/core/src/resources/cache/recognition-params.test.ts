import { describe, expect, it } from 'vitest';
import { parsePredictionInput } from '../../contract/validation/parse-prediction-input.ts';
import { RECOGNITION_PIPELINE_REVISION, recognitionParamsOf, sameRecognitionParams } from './recognition-params.ts';

const OPTIONS = { recognitionLanguages: 'any' as const, engineName: 'pocketsphinx', identifiesLanguages: true, llmConfigured: false };
const input = (extra: Record<string, unknown> = {}) => parsePredictionInput({ audio: 'https://example.com/a.wav', ...extra }, OPTIONS);

describe('recognitionParamsOf / sameRecognitionParams', () => {
  it('should match the parameters of the same input and engine, stored as JSON', () => {
    const stored = JSON.parse(JSON.stringify(recognitionParamsOf(input({ hotwords: 'Kubernetes, Grafana' }), 'pocketsphinx')));
    expect(stored.recognizer).toBe(`pocketsphinx@${RECOGNITION_PIPELINE_REVISION}`);
    expect(sameRecognitionParams(stored, recognitionParamsOf(input({ hotwords: 'Kubernetes, Grafana' }), 'pocketsphinx'))).toBe(true);
  });

  it('should not match a transcript made by another engine', () => {
    const stored = recognitionParamsOf(input(), 'pocketsphinx');
    expect(sameRecognitionParams(stored, recognitionParamsOf(input(), 'openai-compatible'))).toBe(false);
  });

  it('should not match parameters stored by an older pipeline (no recognizer) or none at all', () => {
    const { recognizer: _dropped, ...older } = recognitionParamsOf(input(), 'pocketsphinx');
    expect(sameRecognitionParams(older, recognitionParamsOf(input(), 'pocketsphinx'))).toBe(false);
    expect(sameRecognitionParams(null, recognitionParamsOf(input(), 'pocketsphinx'))).toBe(false);
  });

  it('should not match when any parameter of spec 2.6.4 differs', () => {
    const stored = recognitionParamsOf(input(), 'pocketsphinx');
    for (const extra of [
      { speakers: 2 },
      { language: 'en' },
      { domain: 'meeting' },
      { efficiency: 'fast' },
      { multilingual: true },
      { prompt: 'A talk.' },
      { hotwords: 'Grafana' },
    ]) {
      expect(sameRecognitionParams(stored, recognitionParamsOf(input(extra), 'pocketsphinx')), JSON.stringify(extra)).toBe(false);
    }
  });
});
