import { join } from 'node:path';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { decodeToPcm } from '../../pipeline/decode/decode-to-pcm.ts';
import { probeMedia } from '../../pipeline/decode/probe-media.ts';
import { chooseExcerpt, cutSpeechExcerpt } from '../../pipeline/voices/cut-speech-excerpt.ts';
import { embedSpeechGroups, findVoiceEmbedder } from '../../pipeline/voices/embed-speech.ts';
import { CLUSTER_SECONDS, longestTurns } from '../../pipeline/voices/identify-speakers.ts';
import { regionSeconds, speakerSpeechRegions } from '../../pipeline/voices/speaker-speech-regions.ts';
import type { SpeechEmbedding } from '../../pipeline/voices/voice-embedding.ts';
import type { ServiceContext } from '../../service-context.ts';

/** One speaker of a transcribed recording, measured for naming (the bot's "Name speakers"). */
export interface MeasuredSpeaker {
  /** The transcript's label, e.g. `SPEAKER_1`. */
  label: string;
  /** Seconds of this speaker's speech in the recording (their segments within the detected speech). */
  speechSeconds: number;
  /**
   * Embeddings of their longest turns, up to CLUSTER_SECONDS of them: the same speech a prediction with
   * known voices embeds for this cluster (identifySpeakers). Empty when too little speech to measure.
   */
  embeddings: SpeechEmbedding[];
  /** Seconds of speech the embeddings came from. */
  embeddedSeconds: number;
  /** The excerpt (OGG/Opus, in `workDir`), or null when the speaker has no speech to play. */
  excerptPath: string | null;
  /** Length of the excerpt, seconds. */
  excerptSeconds: number;
}

/** Seconds of a speaker played to ask who it is. */
export const EXCERPT_SECONDS = 5;

/**
 * Measures every speaker of a transcript in the recording it came from: the recording is probed and
 * decoded to 16 kHz mono in `workDir`; per label (order of first appearance), the speech
 * (speakerSpeechRegions), the voice embeddings of their longest turns (as a prediction with
 * `known_voices` embeds a cluster, so a voice stored from them is matched like one) and an excerpt of
 * about `excerptSeconds` from their longest turn(s) (chooseExcerpt, cutSpeechExcerpt). The caller
 * removes `workDir` with the decoded audio and the excerpts once they are played: only the embeddings
 * are to be kept.
 * @param input.mediaPath the recording the transcript was made from (times must match it).
 * @returns one MeasuredSpeaker per label of the transcript's segments.
 * @throws AppError `media_unreadable` / `media_no_audio` from probing, decoding and cutting; the errors of
 *   embedding; the signal's reason on abort.
 */
export async function measureTranscriptSpeakers(
  ctx: ServiceContext,
  input: {
    mediaPath: string;
    transcript: Pick<Transcript, 'segments' | 'vad'>;
    workDir: string;
    excerptSeconds?: number;
    signal?: AbortSignal;
  },
): Promise<MeasuredSpeaker[]> {
  const signal = input.signal;
  const probe = await probeMedia(input.mediaPath, { signal });
  const wavPath = join(input.workDir, 'recording.wav');
  await decodeToPcm(input.mediaPath, wavPath, { ...(signal ? { signal } : {}), statedSeconds: probe.durationSeconds });
  const regions = [...speakerSpeechRegions(input.transcript)];
  const groups = regions.map(([label, list]) =>
    longestTurns(
      list.map((region) => ({ ...region, speaker: label })),
      CLUSTER_SECONDS,
    ),
  );
  const embedder = await findVoiceEmbedder(ctx.config.modelsDir);
  const embedded = await embedSpeechGroups(wavPath, groups, embedder, signal);
  const measured: MeasuredSpeaker[] = [];
  for (const [index, [label, list]] of regions.entries()) {
    const excerpt = chooseExcerpt(list, input.excerptSeconds ?? EXCERPT_SECONDS);
    const excerptPath = excerpt.length === 0 ? null : join(input.workDir, `speaker-${index + 1}.ogg`);
    const excerptSeconds = excerptPath === null ? 0 : await cutSpeechExcerpt(wavPath, excerpt, excerptPath, signal);
    measured.push({
      label,
      speechSeconds: round(regionSeconds(list)),
      embeddings: embedded[index] ?? [],
      embeddedSeconds: round(regionSeconds(groups[index] ?? [])),
      excerptPath,
      excerptSeconds: round(excerptSeconds),
    });
  }
  return measured;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
