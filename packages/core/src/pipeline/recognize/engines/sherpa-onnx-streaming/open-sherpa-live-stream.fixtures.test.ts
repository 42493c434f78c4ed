/**
 * The live stream of a streaming sherpa-onnx model on the random-weight fixture in the real
 * streaming NeMo CTC layout (test-support/models/sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8,
 * made by scripts/fixtures/make-sherpa-fixture-models.py): sherpa-onnx-node's OnlineRecognizer runs
 * its real chunked decode loop in the child process. The words are nonsense: these tests assert
 * behaviour (text grows while audio arrives, the turn's final text, the child's end), never words.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { findCatalogModel, isStreamingModel } from '../../models/model-catalog.ts';
import { createSherpaOnnxEngine } from '../sherpa-onnx/sherpa-onnx-engine.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';
import { FIXTURE_MODELS_DIR } from '../../test-support/fixture-models-dir.ts';
import { openSherpaLiveStream } from './open-sherpa-live-stream.ts';

const STREAMING = findCatalogModel('sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8')!;
const WHISPER = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const DIRECTORY = path.join(FIXTURE_MODELS_DIR, STREAMING.name);
const JFK = audioPath('jfk.wav');

/** jfk.wav as 16 kHz samples in [-1, 1]. */
async function jfkSamples(): Promise<Float32Array> {
  const layout = await readWavLayout(JFK);
  const bytes = (await readFile(JFK)).subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
  const samples = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(2 * i) / 32768;
  return samples;
}

/** Whether process `pid` still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('streaming sherpa-onnx live stream (fixture model)', () => {
  it('is a streaming catalog model with its fixture in place', () => {
    expect(isStreamingModel(STREAMING)).toBe(true);
    expect(isStreamingModel(WHISPER)).toBe(false);
  });

  it('grows the turn text while audio arrives in 100 ms chunks, ends with the final text, and its child is gone after close', async () => {
    const samples = await jfkSamples();
    const stream = openSherpaLiveStream({ model: STREAMING, directory: DIRECTORY });
    const texts: Array<{ text: string; fedSeconds: number }> = [];
    let fed = 0;
    stream.beginTurn((text) => texts.push({ text, fedSeconds: fed / 16000 }));
    for (let at = 0; at < samples.length; at += 1600) {
      const chunk = samples.slice(at, at + 1600);
      stream.push(chunk);
      fed += chunk.length;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const final = await stream.endTurn();
    expect(stream.pid).toBeGreaterThan(0);
    const pid = stream.pid!;
    // Several partial results, each extending the last, all before the end of the input.
    expect(texts.length).toBeGreaterThan(3);
    for (let i = 1; i < texts.length; i++) expect(texts[i]!.text.startsWith(texts[i - 1]!.text)).toBe(true);
    expect(texts[0]!.fedSeconds).toBeLessThan(samples.length / 16000);
    expect(final.length).toBeGreaterThanOrEqual(texts.at(-1)!.text.trim().length);
    expect(final.startsWith(texts.at(-1)!.text.trim())).toBe(true);
    expect(stream.pendingSeconds).toBe(0);
    // A second turn on the same process starts from nothing.
    const second: string[] = [];
    stream.beginTurn((text) => second.push(text));
    stream.push(samples.slice(0, 3 * 16000));
    const secondFinal = await stream.endTurn();
    expect(secondFinal).not.toBe('');
    expect(second.every((text) => text.length <= secondFinal.length + 1)).toBe(true);
    stream.close();
    await stream.exited;
    expect(alive(pid)).toBe(false);
    await expect(stream.endTurn()).rejects.toThrow(/closed/);
  });

  it('hears no words in quiet audio', async () => {
    const stream = openSherpaLiveStream({ model: STREAMING, directory: DIRECTORY });
    stream.beginTurn(() => {});
    const quiet = new Float32Array(2 * 16000);
    for (let i = 0; i < quiet.length; i++) quiet[i] = Math.sin(i) * 0.0005;
    stream.push(quiet);
    expect(await stream.endTurn()).toBe('');
    stream.close();
    await stream.exited;
  });

  it('fails every turn, naming the model and the key, when the model file lacks a metadata key sherpa-onnx needs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'live-stream-broken-'));
    try {
      await copyFile(path.join(DIRECTORY, 'tokens.txt'), path.join(dir, 'tokens.txt'));
      const bytes = await readFile(path.join(DIRECTORY, 'model.int8.onnx'));
      // The key's name in the protobuf, changed in place: the file still parses, the key is gone.
      const at = bytes.indexOf(Buffer.from('window_size'));
      expect(at).toBeGreaterThan(0);
      bytes.write('window_sizX', at);
      await writeFile(path.join(dir, 'model.int8.onnx'), bytes);
      const stream = openSherpaLiveStream({ model: STREAMING, directory: dir });
      stream.beginTurn(() => {});
      stream.push(new Float32Array(16000));
      const error = await stream.endTurn().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('engine_unavailable');
      expect((error as AppError).message).toContain("'window_size'");
      expect((error as AppError).message).toContain(STREAMING.name);
      stream.close();
      await stream.exited;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('decodes a recording through the engine (OnlineRecognizer over each utterance) and offers live streams only for streaming models', async () => {
    const engine = createSherpaOnnxEngine({ modelsDir: FIXTURE_MODELS_DIR, models: [STREAMING], maxThreads: 1 });
    const layout = await readWavLayout(JFK);
    const segments = await engine.recognize({
      wavPath: JFK,
      durationSeconds: layout.durationSeconds,
      speech: [
        { start: 0.286, end: 4.428 },
        { start: 5.374, end: 10.976 },
      ],
      language: 'en',
      prompt: null,
      hotwords: [],
    });
    const words = segments.flatMap((segment) => segment.words);
    expect(words.length).toBeGreaterThan(5);
    // Token times of each utterance (seconds from its start), shifted to the recording: in order, inside the clip.
    let previous = 0;
    for (const word of words) {
      expect(word.start).toBeGreaterThanOrEqual(previous);
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(layout.durationSeconds);
      previous = word.start;
    }
    expect(words[0]!.start).toBeGreaterThan(0.1);
    expect(engine.openLiveStream?.({ language: 'de' })).toBeNull();
    const offline = createSherpaOnnxEngine({ modelsDir: FIXTURE_MODELS_DIR, models: [WHISPER], maxThreads: 1 });
    expect(offline.openLiveStream?.({ language: null })).toBeNull();
    const live = engine.openLiveStream?.({ language: 'en' });
    expect(live?.model).toBe(STREAMING.name);
    live?.close();
    await live?.exited;
  });
});
