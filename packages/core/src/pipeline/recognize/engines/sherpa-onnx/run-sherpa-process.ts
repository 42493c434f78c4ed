import { fileURLToPath } from 'node:url';
import { AppError, type AppErrorCode } from '../../../../platform/errors/app-error.ts';
import { forkNodeChild } from '../../../../platform/work/fork-node-child.ts';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import type { SherpaLanguageIdConfig, SherpaRecognizerConfig } from './build-sherpa-config.ts';
import type { SherpaUtteranceResult } from './shape-sherpa-result.ts';

/** What the recognition process gets (see sherpa-onnx-recognize.process.cjs). */
export interface SherpaJob {
  /** Model name, for error messages. */
  modelName: string;
  wavPath: string;
  dataOffset: number;
  dataBytes: number;
  sampleRate: number;
  /** Stretches to decode, seconds; each becomes one stream. */
  utterances: VadInterval[];
  config: SherpaRecognizerConfig;
  /** Whisper language identification first, or null. */
  languageId: SherpaLanguageIdConfig | null;
  /** Seconds of speech language identification listens to. */
  detectSeconds: number;
  /** Only load the recognizer (start-up probe), decode nothing. */
  probeOnly: boolean;
  /**
   * A streaming model: `config` is an OnlineRecognizer config, and each utterance is fed whole to
   * one stream, followed by silence and the end of input (isStreamingModel). Absent: offline.
   */
  online?: boolean;
}

export interface SherpaProcessOptions {
  /** Whole run, load included, ms. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called once per decoded utterance, in order, with its seconds of audio and its result. */
  onProgress?: (seconds: number, result: SherpaUtteranceResult | undefined) => void;
}

export interface SherpaProcessOutput {
  results: SherpaUtteranceResult[];
  /** The language identification's answer (`en`), or null when it did not run. */
  identifiedLanguage: string | null;
}

type Message =
  | { type: 'language'; lang: string }
  | { type: 'loaded' }
  | { type: 'progress'; seconds: number; result?: SherpaUtteranceResult }
  | { type: 'done'; results: SherpaUtteranceResult[] }
  | { type: 'error'; code: AppErrorCode; message: string };

const SCRIPT = fileURLToPath(new URL('./sherpa-onnx-recognize.process.cjs', import.meta.url));
/** sherpa-onnx logs why it failed on stderr; this much of its end goes into error messages. */
const STDERR_TAIL = 2000;

/** Last meaningful stderr lines, one line: `…offline-whisper-model.cc:InitEncoder:355 'n_mels' does not exist…`. */
function tailOf(stderr: string): string {
  return stderr.trim().split('\n').slice(-3).join(' | ').slice(-600);
}

/**
 * Runs one sherpa-onnx job in a child process (plain `node`, no loader): the event loop never
 * blocks, and a native exit or abort on a bad model ends only the child. The child dies with this
 * process however it dies (fork-node-child.ts), even inside its synchronous decode.
 * @returns the utterance results and the identified language.
 * @throws AppError `engine_unavailable` (module or model failed to load, also when the process died
 *   while loading: the message carries sherpa-onnx's own reason from stderr), `recognition_failed`
 *   (decoding failed, process died while decoding, timeout); `signal.reason` when aborted.
 *   The process is killed (SIGKILL) on timeout and abort.
 */
export function runSherpaProcess(job: SherpaJob, options: SherpaProcessOptions): Promise<SherpaProcessOutput> {
  if (options.signal?.aborted) return Promise.reject(options.signal.reason);
  return new Promise((resolve, reject) => {
    const child = forkNodeChild(SCRIPT, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let loaded = false;
    let identifiedLanguage: string | null = null;
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      settle();
    };
    const onAbort = () => finish(() => reject(options.signal?.reason));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new AppError('recognition_failed', `sherpa-onnx (${job.modelName}) took longer than ${Math.round(options.timeoutMs / 1000)} s`),
          ),
        ),
      options.timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
    child.on('message', (message: Message) => {
      if (message.type === 'language') identifiedLanguage = message.lang;
      else if (message.type === 'loaded') loaded = true;
      else if (message.type === 'progress') options.onProgress?.(message.seconds, message.result);
      else if (message.type === 'done') finish(() => resolve({ results: message.results, identifiedLanguage }));
      else
        finish(() =>
          reject(
            new AppError(
              message.code,
              `sherpa-onnx could not ${loaded ? 'decode with' : 'load'} model ${job.modelName}: ${message.message}${stderr ? ` (${tailOf(stderr)})` : ''}`,
            ),
          ),
        );
    });
    child.on('error', (error) =>
      finish(() => reject(new AppError('recognition_failed', `sherpa-onnx process failed: ${error.message}`, { cause: error }))),
    );
    child.on('close', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const code_: AppErrorCode = loaded ? 'recognition_failed' : 'engine_unavailable';
      const doing = loaded ? 'while decoding' : `while loading model ${job.modelName}`;
      finish(() => reject(new AppError(code_, `sherpa-onnx ${how} ${doing}: ${tailOf(stderr) || 'no message'}`)));
    });
    child.send({ type: 'job', job });
  });
}
