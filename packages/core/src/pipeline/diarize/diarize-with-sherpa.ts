import { fileURLToPath } from 'node:url';
import { AppError, type AppErrorCode } from '../../platform/errors/app-error.ts';
import { forkNodeChild } from '../../platform/work/fork-node-child.ts';
import { assertPcm16kMono, readWavLayout } from '../decode/read-wav-layout.ts';
import type { DiarizationModels } from './locate-diarization-models.ts';
import { numberSpeakersByFirstAppearance, type SpeakerTurn } from './speaker-turn.ts';

export interface SherpaDiarizationInput {
  /** 16 kHz mono 16-bit WAV file. */
  wavPath: string;
  models: DiarizationModels;
  /** The number of speakers, or null to let the clustering threshold decide. */
  speakers: number | null;
  signal?: AbortSignal;
}

type ChildMessage =
  { type: 'done'; segments: { start: number; end: number; speaker: number }[] } | { type: 'error'; code: AppErrorCode; message: string };

const CHILD_SCRIPT = fileURLToPath(new URL('./diarize-with-sherpa.child.cjs', import.meta.url));
const STDERR_TAIL_BYTES = 4096;
/** Cosine-distance threshold of sherpa-onnx's clustering when the count is unknown (its examples' value). */
const CLUSTERING_THRESHOLD = 0.5;

/**
 * Speaker diarization with sherpa-onnx-node's OfflineSpeakerDiarization (pyannote segmentation-3.0 +
 * speaker embeddings + clustering), in a child process: the native call is synchronous, takes the whole
 * recording at once (memory: 4 bytes per sample, ~230 MB per hour), and onnxruntime aborts the process
 * it runs in when a model file is damaged. The child dies with this process however it dies
 * (fork-node-child.ts), even inside that call.
 * @returns turns in seconds labelled `SPEAKER_1`, … by first appearance.
 * @throws AppError `engine_unavailable` (sherpa-onnx-node not loadable, models rejected, or the child process
 *   died, e.g. on a damaged model: its stderr in `cause`), `media_unreadable` (not a WAV file),
 *   `recognition_failed` (wrong sample format, diarization failed); `signal.reason` when aborted (the child is killed).
 */
export async function diarizeWithSherpa(input: SherpaDiarizationInput): Promise<SpeakerTurn[]> {
  input.signal?.throwIfAborted();
  const layout = await readWavLayout(input.wavPath);
  assertPcm16kMono(layout, input.wavPath);
  if (layout.dataBytes < 2) return [];
  const segments = await runChild(
    {
      wavPath: input.wavPath,
      dataOffset: layout.dataOffset,
      dataBytes: layout.dataBytes,
      segmentationModel: input.models.segmentation,
      embeddingModel: input.models.embedding,
      numClusters: input.speakers ?? -1,
      threshold: CLUSTERING_THRESHOLD,
    },
    input.signal,
  );
  return numberSpeakersByFirstAppearance(segments.map((s) => ({ start: s.start, end: s.end, speaker: String(s.speaker) })));
}

function runChild(options: Record<string, unknown>, signal?: AbortSignal): Promise<{ start: number; end: number; speaker: number }[]> {
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
      if (message.type === 'done') finish(() => resolve(message.segments));
      else finish(() => reject(new AppError(message.code, `Speaker diarization failed: ${message.message}`)));
    });
    child.on('error', (error) =>
      finish(() => reject(new AppError('engine_unavailable', `Speaker diarization could not start: ${error.message}`, { cause: error }))),
    );
    child.on('close', (code, killedBy) => {
      const how = killedBy === null ? `exited with code ${code}` : `was killed by ${killedBy}`;
      const cause = new Error(stderr.trim() || how);
      finish(() => reject(new AppError('engine_unavailable', `Speaker diarization ${how} (damaged model files?)`, { cause })));
    });
    child.send(options);
  });
}
