import { findInstalledSpeakerEmbeddingModel } from '../diarize/models/find-installed-diarization-models.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';
import { embedSpeechBuiltin } from './embed-speech-builtin.ts';
import { embedSpeechSherpa, type SpeakerEmbeddingModel } from './embed-speech-sherpa.ts';
import { BUILTIN_EMBEDDING_KIND, type SpeechEmbedding } from './voice-embedding.ts';

/** What computes voice embeddings: the built-in features always, plus a sherpa-onnx model when one is installed. */
export interface VoiceEmbedder {
  /** The installed speaker-embedding model, or null (built-in features only). */
  model: SpeakerEmbeddingModel | null;
}

/**
 * The embedder of this service: the speaker-embedding model findInstalledSpeakerEmbeddingModel finds in
 * MODELS_DIR (the recommended one first), else none.
 * @param modelsDir MODELS_DIR or null.
 */
export async function findVoiceEmbedder(modelsDir: string | null): Promise<VoiceEmbedder> {
  const found = modelsDir === null ? null : await findInstalledSpeakerEmbeddingModel(modelsDir);
  return { model: found ? { name: found.model.name, path: found.path } : null };
}

/** The log line naming the embeddings used: `voice embeddings: built-in features` or `voice embeddings: <model>`. */
export function describeEmbeddingKind(kind: string): string {
  return kind === BUILTIN_EMBEDDING_KIND
    ? 'voice embeddings: built-in features (MFCC statistics; no speaker-embedding model installed)'
    : `voice embeddings: sherpa-onnx ${kind}`;
}

/**
 * Every embedding kind of each group of regions: the built-in one (embedSpeechBuiltin) and, when the
 * embedder has a model, the neural one (embedSpeechSherpa, one child process for all groups).
 * @param groups per group, regions of `wavPath` (16 kHz mono 16-bit WAV) in seconds.
 * @returns per group its embeddings (empty when the group holds too little speech for any kind).
 * @throws as embedSpeechBuiltin and embedSpeechSherpa.
 */
export async function embedSpeechGroups(
  wavPath: string,
  groups: readonly (readonly TimeRegion[])[],
  embedder: VoiceEmbedder,
  signal?: AbortSignal,
): Promise<SpeechEmbedding[][]> {
  const result: SpeechEmbedding[][] = [];
  for (const regions of groups) {
    const builtin = await embedSpeechBuiltin(wavPath, regions, signal);
    result.push(builtin ? [builtin] : []);
  }
  if (embedder.model !== null) {
    const neural = await embedSpeechSherpa(wavPath, embedder.model, groups, signal);
    neural.forEach((embedding, i) => {
      if (embedding) result[i]!.push(embedding);
    });
  }
  return result;
}
