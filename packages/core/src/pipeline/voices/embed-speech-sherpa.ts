import { fileURLToPath } from 'node:url';
import { AppError, type AppErrorCode } from '../../platform/errors/app-error.ts';
import { forkNodeChild } from '../../platform/work/fork-node-child.ts';
import { assertPcm16kMono, readWavLayout } from '../decode/read-wav-layout.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';
import { speechSeconds } from './embed-speech-builtin.ts';
import { unitVector, type SpeechEmbedding } from './voice-embedding.ts';

const CHILD_SCRIPT = fileURLToPath(new URL('./embed-speech-sherpa.child.cjs', import.meta.url));
const SAMPLE_RATE = 16000;
const STDERR_TAIL_BYTES = 4096;

type ChildMessage = { type: 'done'; vectors: (number[] | null)[] } | { type: 'error'; code: AppErrorCode; message: string };

/** A sherpa-onnx speaker-embedding model: its catalog name (the embedding kind) and its ONNX file. */
export interface SpeakerEmbeddingModel {
  name: string;
  path: string;
}

/**
 * Neural speaker embeddings with sherpa-onnx-node's SpeakerEmbeddingExtractor (the model of
 * findInstalledSpeakerEmbeddingModel), one per group of regions (each group's samples fed to one stream,
 * in order), in a child process as diarize-with-sherpa.ts does: the native call is synchronous and
 * onnxruntime aborts the process on a damaged model. Similarity of two embeddings is their cosine
 * (sherpa-onnx SpeakerEmbeddingManager scores L2-normalised dot products).
 * @param groups per group, regions of `wavPath` (16 kHz mono 16-bit WAV), seconds.
 * @returns one embedding per group (kind `model.name`, unit length), null for a group too short for the model.
 * @throws AppError `engine_unavailable` (sherpa-onnx-node or the model not loadable, the child died),
 *   `recognition_failed`, `media_unreadable`; `signal.reason` when aborted.
 */
export async function embedSpeechSherpa(
  wavPath: string,
  model: SpeakerEmbeddingModel,
  groups: readonly (readonly TimeRegion[])[],
  signal?: AbortSignal,
): Promise<(SpeechEmbedding | null)[]> {
  signal?.throwIfAborted();
  const layout = await readWavLayout(wavPath);
  assertPcm16kMono(layout, wavPath);
  const vectors = await runChild(
    {
      wavPath,
      dataOffset: layout.dataOffset,
      dataBytes: layout.dataBytes,
      model: model.path,
      groups: groups.map((regions) => regions.map((r) => [Math.round(r.start * SAMPLE_RATE), Math.round(r.end * SAMPLE_RATE)])),
    },
    signal,
  );
  return vectors.map((vector, i) =>
    vector === null || vector.length === 0 ? null : { kind: model.name, vector: unitVector(vector), seconds: speechSeconds(groups[i]!) },
  );
}

function runChild(options: Record<string, unknown>, signal?: AbortSignal): Promise<(number[] | null)[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const child = forkNodeChild(CHILD_SCRIPT, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)));
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'done') finish(() => resolve(message.vectors));
      else finish(() => reject(new AppError(message.code, `Speaker embedding failed: ${message.message}`)));
    });
    child.on('error', (error) =>
      finish(() => reject(new AppError('engine_unavailable', `Speaker embedding could not start: ${error.message}`, { cause: error }))),
    );
    child.on('close', (code, killedBy) => {
      const how = killedBy === null ? `exited with code ${code}` : `was killed by ${killedBy}`;
      finish(() =>
        reject(
          new AppError('engine_unavailable', `Speaker embedding ${how} (damaged model file?)`, { cause: new Error(stderr.trim() || how) }),
        ),
      );
    });
    child.send(options);
  });
}
