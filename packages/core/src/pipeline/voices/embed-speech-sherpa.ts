import { fileURLToPath } from 'node:url';
import { runNodeChildOnce } from '../../platform/work/run-node-child-once.ts';
import { assertPcm16kMono, readWavLayout } from '../decode/read-wav-layout.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';
import { speechSeconds } from './embed-speech-builtin.ts';
import { unitVector, type SpeechEmbedding } from './voice-embedding.ts';

const CHILD_SCRIPT = fileURLToPath(new URL('./embed-speech-sherpa.child.cjs', import.meta.url));
const SAMPLE_RATE = 16000;

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
  const { vectors } = await runNodeChildOnce<{ vectors: (number[] | null)[] }>(
    CHILD_SCRIPT,
    {
      wavPath,
      dataOffset: layout.dataOffset,
      dataBytes: layout.dataBytes,
      model: model.path,
      groups: groups.map((regions) => regions.map((r) => [Math.round(r.start * SAMPLE_RATE), Math.round(r.end * SAMPLE_RATE)])),
    },
    { label: 'Speaker embedding', closeHint: 'damaged model file?' },
    signal,
  );
  return vectors.map((vector, i) =>
    vector === null || vector.length === 0 ? null : { kind: model.name, vector: unitVector(vector), seconds: speechSeconds(groups[i]!) },
  );
}
