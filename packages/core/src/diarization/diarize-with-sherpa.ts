import { Worker } from 'node:worker_threads';
import { AppError, type AppErrorCode } from '../errors/app-error.ts';
import { assertPcm16kMono, readWavLayout } from '../recognition/read-wav-layout.ts';
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

type WorkerMessage =
  | { type: 'done'; segments: { start: number; end: number; speaker: number }[] }
  | { type: 'error'; code: AppErrorCode; message: string };

const WORKER_URL = new URL('./diarize-with-sherpa.worker.cjs', import.meta.url);
/** Cosine-distance threshold of sherpa-onnx's clustering when the count is unknown (its examples' value). */
const CLUSTERING_THRESHOLD = 0.5;

/**
 * Speaker diarization with sherpa-onnx-node's OfflineSpeakerDiarization (pyannote segmentation-3.0 +
 * speaker embeddings + clustering), in a worker thread because the native call is synchronous and takes
 * the whole recording at once (memory: 4 bytes per sample, ~230 MB per hour).
 * @returns turns in seconds labelled `SPEAKER_1`, … by first appearance.
 * @throws AppError `engine_unavailable` (sherpa-onnx-node not loadable, models rejected), `media_unreadable`
 *   (not a WAV file), `recognition_failed` (wrong sample format, diarization failed or crashed);
 *   `signal.reason` when aborted (the worker is terminated).
 */
export async function diarizeWithSherpa(input: SherpaDiarizationInput): Promise<SpeakerTurn[]> {
  input.signal?.throwIfAborted();
  const layout = await readWavLayout(input.wavPath);
  assertPcm16kMono(layout, input.wavPath);
  if (layout.dataBytes < 2) return [];
  const segments = await runWorker(
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

function runWorker(workerData: Record<string, unknown>, signal?: AbortSignal): Promise<{ start: number; end: number; speaker: number }[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const worker = new Worker(WORKER_URL, { workerData });
    const onAbort = () => finish(() => reject(signal?.reason));
    const finish = (settle: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      worker.removeAllListeners();
      worker.on('error', () => {}); // late errors after settling are irrelevant
      void worker.terminate();
      settle();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'done') finish(() => resolve(message.segments));
      else finish(() => reject(new AppError(message.code, `Speaker diarization failed: ${message.message}`)));
    });
    worker.on('error', (error) =>
      finish(() => reject(new AppError('recognition_failed', `Speaker diarization crashed: ${error.message}`, { cause: error }))),
    );
    worker.on('exit', (code) => finish(() => reject(new AppError('recognition_failed', `Speaker diarization worker exited early (code ${code})`))));
  });
}
