import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The random-weight models of the real sherpa-onnx layout (scripts/fixtures/make-sherpa-fixture-models.py).
import { FIXTURE_MODELS_DIR } from '@transcribe/core/testing';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface VerboseSegment {
  start: number;
  end: number;
  avg_logprob: number | null;
  no_speech_prob: number | null;
  flags?: string[];
}
interface VerboseAnswer {
  duration: number;
  segments: VerboseSegment[];
  words: { word: string; start: number; end: number; probability: number | null }[];
}

/** Tokens of the transducer fixture (tokens.txt: 140 pieces, `<unk>`, the blank). */
const VOCAB = 142;
const CLIPS = ['jfk.wav', 'librispeech-test-clean/1089-134686-0000.wav', 'librispeech-test-clean/1089-134686-0001.wav'];

/**
 * The scores of a transducer through the OpenAI-compatible API: the sherpa-onnx engine on the
 * random-weight NeMo TDT fixture (Parakeet TDT v2 layout), whose results carry `ys_log_probs`.
 * `verbose_json` must carry the engine's scores as they follow from the audio: `avg_logprob` per
 * segment and `probability` per word, never a constant standing in for a score.
 */
describe('verbose_json scores from a sherpa-onnx transducer (fixture NeMo TDT model)', () => {
  let t: TestService;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'sherpa-onnx',
      MODELS_DIR: FIXTURE_MODELS_DIR,
      SHERPA_MODEL: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
      MODELS_AUTO_INSTALL: '0',
    });
    client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await t?.stop();
  });

  const transcribe = async (clip: string) => {
    const file = await toFile(await readFile(join(AUDIO_DIR, clip)), clip.split('/').at(-1)!, { type: 'audio/wav' });
    return (await client.audio.transcriptions.create({
      file,
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['segment', 'word'],
    })) as unknown as VerboseAnswer;
  };

  it('should give avg_logprob and word probabilities that follow the audio, in range, flagged by the −1 rule', async () => {
    const answers = [];
    for (const clip of CLIPS) answers.push(await transcribe(clip));
    const logprobs: number[] = [];
    for (const answer of answers) {
      expect(answer.segments.length).toBeGreaterThan(0);
      for (const segment of answer.segments) {
        expect(typeof segment.avg_logprob).toBe('number');
        const value = segment.avg_logprob!;
        // Greedy search takes the most likely of 142 tokens at every step: probability ≥ 1/142.
        expect(value).toBeLessThan(0);
        expect(value).toBeGreaterThanOrEqual(-Math.log(VOCAB) - 1e-3);
        expect(segment.flags?.includes('low_logprob')).toBe(value < -1);
        expect(segment.flags?.includes('no_speech')).toBe(value < -1 && segment.no_speech_prob! > 0.6);
        logprobs.push(value);
      }
      const probabilities = answer.words.map((word) => word.probability);
      expect(probabilities.length).toBeGreaterThan(5);
      for (const probability of probabilities) {
        expect(probability).toBeGreaterThanOrEqual(1 / VOCAB - 1e-4);
        expect(probability).toBeLessThanOrEqual(1);
      }
      expect(new Set(probabilities).size).toBeGreaterThan(probabilities.length / 3);
    }
    // Each recording scores differently: avg_logprob is measured, not a constant.
    expect(new Set(logprobs).size).toBe(logprobs.length);
    // The same audio again gives the same scores: they are a function of the audio.
    const again = await transcribe(CLIPS[0]!);
    expect(again.segments.map((segment) => segment.avg_logprob)).toEqual(answers[0]!.segments.map((segment) => segment.avg_logprob));
    expect(again.words.map((word) => word.probability)).toEqual(answers[0]!.words.map((word) => word.probability));
  });
});
