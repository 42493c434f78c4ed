import type { SpeakerTurn } from '../diarize/speaker-turn.ts';
import { describeEmbeddingKind, embedSpeechGroups, type VoiceEmbedder } from './embed-speech.ts';
import { matchVoices, type VoiceMatch } from './match-voices.ts';
import { BUILTIN_EMBEDDING_KIND, type VoiceEmbeddings } from './voice-embedding.ts';

/** A voice of the registry offered to a recording. */
export interface KnownVoice {
  id: string;
  name: string;
  embeddings: VoiceEmbeddings;
}

/** Default similarity thresholds per embedding kind (docs/speakers.md, "Threshold"). */
export const DEFAULT_THRESHOLDS = {
  /**
   * The smallest multiple of 0.05 that no pair of different speakers from different recordings of the
   * calibration split reaches (highest 0.548 of 103 pairs; bench/speakers.ts `--calibrate`): a wrong
   * name is worse than no name (docs/speakers.md, "Threshold").
   */
  builtin: 0.55,
  /** sherpa-onnx's own examples' value for its speaker-identification models (not measured here: no model on the test machine). */
  neural: 0.6,
} as const;

/** Most seconds of a cluster's speech embedded: its longest turns first, until this much is taken. */
export const CLUSTER_SECONDS = 30;

/** What identifySpeakers found. */
export interface SpeakerIdentification {
  /** Turn label → voice name, for assignSpeakers. */
  names: Map<string, string>;
  /** The matches, keyed by turn label. */
  matches: VoiceMatch[];
  /** The embedding kind used. */
  kind: string;
  threshold: number;
}

/**
 * Which known voices speak in a diarized recording: one embedding per speaker cluster from its longest
 * turns (up to CLUSTER_SECONDS of them), then matchVoices (exclusive, optimal, thresholded). The
 * embedding kind is the neural model's when one is installed and every voice has an embedding of it
 * (voices enrolled before the model was installed have only the built-in one), else the built-in
 * features; `log` says which.
 * @param turns the diarizer's turns (labels as it gives them).
 * @param threshold the cosine similarity a match needs, or null for DEFAULT_THRESHOLDS of the kind used.
 * @returns the names and matches; no names when no voice or no cluster passes.
 * @throws as embedSpeechGroups.
 */
export async function identifySpeakers(input: {
  wavPath: string;
  turns: readonly SpeakerTurn[];
  voices: readonly KnownVoice[];
  embedder: VoiceEmbedder;
  threshold: number | null;
  signal?: AbortSignal;
  log?: (line: string) => void;
}): Promise<SpeakerIdentification> {
  const model = input.embedder.model;
  const neural = model !== null && input.voices.every((voice) => voice.embeddings[model.name] !== undefined) ? model.name : null;
  const kind = neural ?? BUILTIN_EMBEDDING_KIND;
  const threshold = input.threshold ?? (neural ? DEFAULT_THRESHOLDS.neural : DEFAULT_THRESHOLDS.builtin);
  input.log?.(describeEmbeddingKind(kind));
  const labels = [...new Set(input.turns.map((turn) => turn.speaker))];
  const groups = labels.map((label) =>
    longestTurns(
      input.turns.filter((turn) => turn.speaker === label),
      CLUSTER_SECONDS,
    ),
  );
  const embedded = await embedSpeechGroups(input.wavPath, groups, neural ? input.embedder : { model: null }, input.signal);
  const clusters = labels.flatMap((label, i) => {
    const embedding = embedded[i]!.find((e) => e.kind === kind);
    return embedding ? [{ label, vector: embedding.vector }] : [];
  });
  const candidates = input.voices.flatMap((voice) => {
    const stored = voice.embeddings[kind];
    return stored ? [{ id: voice.id, name: voice.name, vector: stored.sum }] : [];
  });
  const matches = matchVoices(clusters, candidates, threshold);
  return { names: new Map(matches.map((m) => [m.label, m.name])), matches, kind, threshold };
}

/** The longest of `turns` until `seconds` are taken (the last one cut), in time order. */
export function longestTurns(turns: readonly SpeakerTurn[], seconds: number): SpeakerTurn[] {
  const taken: SpeakerTurn[] = [];
  let left = seconds;
  for (const turn of [...turns].sort((a, b) => b.end - b.start - (a.end - a.start))) {
    if (left <= 0) break;
    const length = Math.min(turn.end - turn.start, left);
    taken.push({ start: turn.start, end: turn.start + length, speaker: turn.speaker });
    left -= length;
  }
  return taken.sort((a, b) => a.start - b.start);
}
