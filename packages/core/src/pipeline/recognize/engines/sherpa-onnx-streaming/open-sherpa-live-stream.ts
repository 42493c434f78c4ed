import { fileURLToPath } from 'node:url';
import { AppError, type AppErrorCode } from '../../../../platform/errors/app-error.ts';
import { forkNodeChild } from '../../../../platform/work/fork-node-child.ts';
import { buildSherpaConfig, type SherpaRecognizerConfig } from '../sherpa-onnx/build-sherpa-config.ts';
import { assertSherpaModelMetadata } from '../sherpa-onnx/check-sherpa-model-metadata.ts';
import type { CatalogModel } from '../../models/model-catalog.ts';
import type { LiveRecognitionStream } from '../../live-recognition-stream.ts';

const SCRIPT = fileURLToPath(new URL('./sherpa-onnx-stream.process.cjs', import.meta.url));
const RATE = 16_000;
/** sherpa-onnx logs why it failed on stderr; this much of its end goes into error messages. */
const STDERR_TAIL = 2000;

export interface OpenSherpaLiveStreamOptions {
  /** The streaming catalog model (isStreamingModel) and its folder `MODELS_DIR/<name>`. */
  model: CatalogModel;
  directory: string;
  /** ONNX Runtime threads of the child (default 1: one per live session). */
  maxThreads?: number;
}

type ChildMessage =
  | { type: 'loaded' }
  | { type: 'fed'; turn: number; samples: number; text?: string }
  | { type: 'final'; turn: number; text: string }
  | { type: 'error'; code: AppErrorCode; message: string };

/**
 * The OnlineRecognizer config of a live stream: the model's (buildSherpaConfig, greedy search) with
 * sherpa-onnx's endpoint rules off: the session's server VAD or the client's commit ends a turn.
 */
export function buildLiveStreamConfig(
  model: CatalogModel,
  directory: string,
  maxThreads: number,
): SherpaRecognizerConfig & { enableEndpoint: number } {
  return { ...buildSherpaConfig({ model, directory, efficiency: null, language: null, maxThreads }), enableEndpoint: 0 };
}

/**
 * Opens a live stream on a streaming sherpa-onnx model: checks the model's metadata
 * (check-sherpa-model-metadata.ts), starts one child process (sherpa-onnx-stream.process.cjs, tied
 * to this process: fork-node-child.ts) that loads the OnlineRecognizer once, and returns at once:
 * what is sent before the model is loaded waits in order. Each turn is a fresh stream of that
 * recogniser; its text is reported as it grows. A failure (metadata, load, a crash) makes every
 * later `endTurn` reject with it; the session reports the turn as failed.
 */
export function openSherpaLiveStream(options: OpenSherpaLiveStreamOptions): LiveRecognitionStream {
  const { model, directory } = options;
  let failure: AppError | null = null;
  let closed = false;
  let child: ReturnType<typeof forkNodeChild> | null = null;
  let loaded = false;
  let stderr = '';
  let turn = 0;
  let onText: ((text: string) => void) | null = null;
  let pendingSamples = 0;
  const finals = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let resolveExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));

  const fail = (error: AppError) => {
    failure ??= error;
    for (const waiter of finals.values()) waiter.reject(failure);
    finals.clear();
    onText = null;
    pendingSamples = 0;
  };
  const tail = () => stderr.trim().split('\n').slice(-3).join(' | ').slice(-600);

  const ready = assertSherpaModelMetadata(model, directory).then(
    () => {
      if (closed) return;
      const started = forkNodeChild(SCRIPT, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
      child = started;
      started.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
      started.on('message', (message: ChildMessage) => {
        if (message.type === 'loaded') loaded = true;
        else if (message.type === 'fed') {
          pendingSamples = Math.max(0, pendingSamples - message.samples);
          if (message.text !== undefined && message.turn === turn) onText?.(message.text);
        } else if (message.type === 'final') {
          finals.get(message.turn)?.resolve(message.text.trim());
          finals.delete(message.turn);
        } else {
          const doing = loaded ? 'decode with' : 'load';
          fail(
            new AppError(
              message.code,
              `sherpa-onnx could not ${doing} model ${model.name}: ${message.message}${stderr ? ` (${tail()})` : ''}`,
            ),
          );
        }
      });
      started.on('error', (error) => fail(new AppError('recognition_failed', `sherpa-onnx stream process failed: ${error.message}`)));
      started.on('exit', (code, signal) => {
        resolveExited();
        if (closed) return;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const doing = loaded ? 'while decoding' : `while loading model ${model.name}`;
        fail(new AppError(loaded ? 'recognition_failed' : 'engine_unavailable', `sherpa-onnx ${how} ${doing}: ${tail() || 'no message'}`));
      });
      started.send({ type: 'open', config: buildLiveStreamConfig(model, directory, options.maxThreads ?? 1) });
    },
    (error: unknown) => {
      resolveExited();
      fail(error instanceof AppError ? error : new AppError('engine_unavailable', (error as Error).message));
    },
  );
  // Messages keep their order: each waits for the child, then goes down the one IPC channel.
  const send = (message: Record<string, unknown>) => {
    void ready.then(() => {
      if (!closed && failure === null && child?.connected) child.send(message);
    });
  };

  return {
    model: model.name,
    languages: model.languages,
    get pid() {
      return child?.pid ?? null;
    },
    get failed() {
      return failure !== null;
    },
    get pendingSeconds() {
      return pendingSamples / RATE;
    },
    exited,
    beginTurn(callback) {
      turn++;
      onText = callback;
      send({ type: 'begin', turn });
    },
    push(samples) {
      if (onText === null || samples.length === 0 || failure || closed) return;
      pendingSamples += samples.length;
      send({ type: 'audio', turn, samples });
    },
    endTurn() {
      onText = null;
      if (failure) return Promise.reject(failure);
      if (closed) return Promise.reject(new AppError('recognition_failed', 'The live stream was closed.'));
      const ended = turn;
      const result = new Promise<string>((resolve, reject) => finals.set(ended, { resolve, reject }));
      send({ type: 'end', turn: ended });
      return result;
    },
    dropTurn() {
      onText = null;
      send({ type: 'drop', turn });
    },
    close() {
      if (closed) return;
      closed = true;
      fail(new AppError('recognition_failed', 'The live stream was closed.'));
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      else if (!child) void ready.then(() => resolveExited());
    },
  };
}
