import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isAppError } from '../../../../platform/errors/app-error.ts';
import type { SelfTestResult } from '../list-installed-models.ts';
import type { CatalogModel } from '../model-catalog.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { createSherpaOnnxEngine } from '../../engines/sherpa-onnx/sherpa-onnx-engine.ts';
import { wordErrorRate } from '../../word-error-rate.ts';

/** The clip every model decodes before it is activated (public domain, see self-test/SOURCE.md). */
export const SELF_TEST_WAV = fileURLToPath(new URL('./self-test/jfk.wav', import.meta.url));
export const SELF_TEST_TEXT = fileURLToPath(new URL('./self-test/jfk.txt', import.meta.url));

/**
 * Highest word error rate a model may have on the self-test clip and still be activated. A working
 * model of the catalog stays far below it on 22 clear words; random or mismatched weights (wrong
 * tokens file, damaged export) produce empty or unrelated text, far above it.
 */
export const SELF_TEST_MAX_WER = 0.6;

export type { SelfTestResult } from '../list-installed-models.ts';

/**
 * Decodes the self-test clip (11 s of English) with `model` as installed in `modelsDir`, through
 * the engine the service uses (createSherpaOnnxEngine, one utterance covering the whole clip,
 * language `en`), and scores it with word-error-rate.ts. Never throws for a model that fails to
 * load or decode: that is a failed result with the engine's message as `reason`.
 * @throws only for errors that are not the engine's (e.g. the clip missing from the checkout), and
 *   `signal.reason` when aborted.
 */
export async function runModelSelfTest(modelsDir: string, model: CatalogModel, options: { maxThreads?: number; signal?: AbortSignal } = {}): Promise<SelfTestResult> {
  const reference = (await readFile(SELF_TEST_TEXT, 'utf8')).trim();
  const layout = await readWavLayout(SELF_TEST_WAV);
  const audioSeconds = layout.durationSeconds;
  const testedAt = new Date().toISOString();
  const engine = createSherpaOnnxEngine({ modelsDir, models: [model], maxThreads: options.maxThreads });
  const started = performance.now();
  let text: string;
  try {
    const segments = await engine.recognize({
      wavPath: SELF_TEST_WAV, durationSeconds: audioSeconds, speech: [{ start: 0, end: audioSeconds }],
      language: 'en', prompt: null, hotwords: [], signal: options.signal,
    });
    text = segments.map((segment) => segment.text.trim()).filter(Boolean).join(' ');
  } catch (error) {
    options.signal?.throwIfAborted();
    if (!isAppError(error)) throw error;
    const reason = `decoding failed: ${error.message.split('\n')[0]}`;
    return { passed: false, wer: null, realTimeFactor: null, audioSeconds, text: '', reason, testedAt };
  }
  const realTimeFactor = (performance.now() - started) / 1000 / audioSeconds;
  const { wer } = wordErrorRate(reference, text);
  let reason: string | null = null;
  if (text === '') reason = 'the model produced no text';
  else if (wer > SELF_TEST_MAX_WER) reason = `word error rate ${wer.toFixed(3)} is over ${SELF_TEST_MAX_WER}`;
  return { passed: reason === null, wer, realTimeFactor, audioSeconds, text, reason, testedAt };
}
