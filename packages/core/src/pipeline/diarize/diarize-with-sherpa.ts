import { fileURLToPath } from 'node:url';
import { runNodeChildOnce } from '../../platform/work/run-node-child-once.ts';
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

const CHILD_SCRIPT = fileURLToPath(new URL('./diarize-with-sherpa.child.cjs', import.meta.url));
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
  const { segments } = await runNodeChildOnce<{ segments: { start: number; end: number; speaker: number }[] }>(
    CHILD_SCRIPT,
    {
      wavPath: input.wavPath,
      dataOffset: layout.dataOffset,
      dataBytes: layout.dataBytes,
      segmentationModel: input.models.segmentation,
      embeddingModel: input.models.embedding,
      numClusters: input.speakers ?? -1,
      threshold: CLUSTERING_THRESHOLD,
    },
    { label: 'Speaker diarization', closeHint: 'damaged model files?' },
    input.signal,
  );
  return numberSpeakersByFirstAppearance(segments.map((s) => ({ start: s.start, end: s.end, speaker: String(s.speaker) })));
}
