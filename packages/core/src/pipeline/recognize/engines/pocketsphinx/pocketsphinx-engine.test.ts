import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { detectSpeech } from '../../../vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from '../../../vad/locate-vad-model.ts';
import { assertPocketsphinxAvailable, createPocketsphinxEngine } from './pocketsphinx-engine.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { audioPath, readReference } from '../../shared-audio.test-helper.ts';
import { wordErrorRate } from '../../word-error-rate.ts';

const engine = createPocketsphinxEngine();
const recognized = new Map<string, Promise<RecognizedSegment[]>>();

/** Recognises a shared clip once per test file (CPU is scarce). */
function recognizeClipOnce(file: string): Promise<RecognizedSegment[]> {
  if (!recognized.has(file)) recognized.set(file, recognizeClip(file));
  return recognized.get(file)!;
}

/** Names of the processes this test process started that are still running. */
function childProcessNames(): string[] {
  const result = spawnSync('ps', ['--ppid', String(process.pid), '-o', 'comm='], { encoding: 'utf8' });
  return result.stdout.split('\n').filter(Boolean);
}

async function recognizeClip(file: string, extra: { speech?: VadInterval[]; signal?: AbortSignal } = {}) {
  const wavPath = audioPath(file);
  const { durationSeconds } = await readWavLayout(wavPath);
  const speech = extra.speech ?? (await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() }));
  return engine.recognize({ wavPath, durationSeconds, speech, language: null, prompt: null, hotwords: [], signal: extra.signal });
}

// Bounds: measured WER (docs/recognition.md) + ~0.05. Run one after another to spare the 2 cores.
describe('pocketsphinx engine', () => {
  it.each([
    ['jfk.wav', 0.28],
    ['librispeech-test-clean/1089-134686-0000.wav', 0.41],
    ['librispeech-test-clean/1089-134686-0001.wav', 0.43],
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0870.wav', 0.42],
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0880.wav', 0.43],
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0890.wav', 0.34],
  ])('should recognise %s with WER under %s', async (file, bound) => {
    const segments = await recognizeClipOnce(file);
    const hypothesis = segments.map((segment) => segment.text).join(' ');
    const score = wordErrorRate(await readReference(file), hypothesis);
    console.log(`${file}: WER ${score.wer.toFixed(3)} (${JSON.stringify(score)}) "${hypothesis}"`);
    expect(score.wer).toBeLessThan(bound);
    for (const segment of segments) {
      expect(segment.language).toBe('en');
      expect(segment.text).toBe(segment.words.map((word) => word.text).join(' '));
      expect(segment.text).not.toMatch(/[<>[\]()]|\+\+/); // no fillers, no `can(2)` alternatives
    }
  });

  it('should give word times inside the speech of jfk.wav', async () => {
    const segments = await recognizeClipOnce('jfk.wav');
    const words = segments.flatMap((segment) => segment.words);
    const country = words.filter((word) => word.text === 'country');
    expect(country[0]?.start).toBeGreaterThan(5.5); // "what your country" starts at 5.4 s
    expect(country[0]?.end).toBeLessThan(6.8);
    for (const [i, word] of words.entries()) {
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      if (i > 0) expect(word.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
    }
  });

  it('should return no segments, without starting pocketsphinx, when there is no speech', async () => {
    const broken = createPocketsphinxEngine({ binaryPath: '/nonexistent' });
    const wavPath = audioPath('nonspeech/generated_digital_silence_10s.wav');
    const request = { wavPath, durationSeconds: 10, speech: [], language: null, prompt: null, hotwords: [] };
    expect(await broken.recognize(request)).toEqual([]);
  });

  it('should refuse a missing binary with engine_unavailable and the apt command', async () => {
    const broken = createPocketsphinxEngine({ binaryPath: '/nonexistent' });
    const request = {
      wavPath: audioPath('jfk.wav'),
      durationSeconds: 11,
      speech: [{ start: 0.3, end: 2.3 }],
      language: null,
      prompt: null,
      hotwords: [],
    };
    await expect(broken.recognize(request)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('apt-get install pocketsphinx pocketsphinx-en-us'),
    });
    await expect(assertPocketsphinxAvailable({ modelDir: '/nonexistent' })).rejects.toMatchObject({ code: 'engine_unavailable' });
    await expect(assertPocketsphinxAvailable()).resolves.toBeUndefined();
  });

  it('should refuse a language other than English with invalid_input', async () => {
    const request = {
      wavPath: audioPath('jfk.wav'),
      durationSeconds: 11,
      speech: [{ start: 0.3, end: 2.3 }],
      language: 'de',
      prompt: null,
      hotwords: [],
    };
    await expect(engine.recognize(request)).rejects.toMatchObject({ code: 'invalid_input', param: 'language' });
  });

  it('should stop pocketsphinx and reject with the abort reason when aborted', async () => {
    const controller = new AbortController();
    const began = Date.now();
    const speech = [
      { start: 0, end: 30 },
      { start: 30, end: 60 },
    ];
    const running = recognizeClip('long_hifitts6097_concat_16k.wav', { speech, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 1500); // after the model has loaded
    await expect(running).rejects.toThrow('cancelled');
    expect(Date.now() - began).toBeLessThan(12_000); // 60 s of audio takes ~20 s on a quiet machine, more under load
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(childProcessNames()).not.toContain('pocketsphinx_ba'); // ps truncates names to 15 characters
  });
});
