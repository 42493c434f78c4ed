import type { PredictionInput } from './prediction-input.ts';

/**
 * A validated input as the parser would make it from `{ audio }` alone (every other parameter at
 * its default), with `changes` applied: for tests that store prediction rows directly.
 */
export function predictionInputOf(audio: string, changes: Partial<PredictionInput> = {}): PredictionInput {
  return {
    audio,
    language: null,
    speakers: null,
    output_format: 'json',
    domain: null,
    efficiency: null,
    multilingual: null,
    prompt: null,
    hotwords: [],
    post_process: null,
    custom_prompt: null,
    target_language: null,
    ...changes,
  };
}
