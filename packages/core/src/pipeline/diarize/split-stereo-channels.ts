import { rm } from 'node:fs/promises';
import path from 'node:path';
import { decodeChannelsToPcm } from '../decode/decode-channels-to-pcm.ts';
import type { SilenceCut } from '../decode/cut-long-silences.ts';
import { compareChannels, type ChannelComparison } from './compare-channels.ts';

export interface SplitStereoInput {
  /** The recording as downloaded or uploaded (any format ffmpeg reads). */
  mediaPath: string;
  /** Channels of its audio stream (MediaProbe.channels). */
  channels: number;
  /** Folder for the two channel files (the prediction's work folder). */
  workDir: string;
  /** The length the probe stated, seconds (decodeChannelsToPcm stops not far past it); absent when unknown. */
  statedSeconds?: number;
  /** Leave out the middle of the silences of 30 s or more of both channels (decodeChannelsToPcm `cutSilences`). */
  cutSilences?: boolean;
  signal?: AbortSignal;
}

export type StereoSplit =
  | {
      separate: true;
      /** 16 kHz mono WAV of the left channel (`<workDir>/channel-left.wav`): transcribe it as one speaker. */
      left: string;
      /** Same for the right channel (`<workDir>/channel-right.wav`). */
      right: string;
      /** Length of the audio in each channel file, seconds (the source's less the silences cut). */
      durationSeconds: number;
      /** Length of the decoded recording, seconds, silences included. */
      sourceSeconds: number;
      /** Silences left out of both channel files (empty unless `cutSilences`): mapToSourceSeconds maps times back. */
      cuts: SilenceCut[];
      comparison: ChannelComparison;
    }
  | {
      separate: false;
      /** null when the recording is not stereo (nothing was decoded). */
      comparison: ChannelComparison | null;
      /**
       * With `cutSilences`, when both channels are silence from start to end (DecodedPcm.silent): the
       * recording's length in seconds, so that the caller needs no mono decode to know there is nothing
       * to transcribe; else null.
       */
      silentSeconds: number | null;
    };

/**
 * For a stereo recording, decodes each channel to its own 16 kHz mono WAV and keeps them when the channels
 * carry different speakers (compareChannels); the caller then transcribes each channel and joins the two
 * transcripts with mergeChannelTranscripts instead of diarizing the mono mix. Recordings with other than
 * two channels, and stereo whose channels carry the same sound, give `separate: false` (the channel files
 * are removed) and go through the usual mono pipeline.
 * @throws AppError from decodeChannelsToPcm (`media_unreadable`, `media_no_audio`, `media_too_large`) or compareChannels;
 *   the signal's reason on abort.
 */
export async function splitStereoChannels(input: SplitStereoInput): Promise<StereoSplit> {
  if (input.channels !== 2) return { separate: false, comparison: null, silentSeconds: null };
  const left = path.join(input.workDir, 'channel-left.wav');
  const right = path.join(input.workDir, 'channel-right.wav');
  const [decoded] = await decodeChannelsToPcm(input.mediaPath, [left, right], {
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.statedSeconds === undefined ? {} : { statedSeconds: input.statedSeconds }),
    cutSilences: input.cutSilences ?? false,
  });
  try {
    const comparison = await compareChannels(left, right, input.signal);
    if (comparison.separate) {
      const { durationSeconds, sourceSeconds, cuts } = decoded!;
      return { separate: true, left, right, durationSeconds, sourceSeconds, cuts, comparison };
    }
    await removeBoth(left, right);
    return { separate: false, comparison, silentSeconds: decoded!.silent ? decoded!.sourceSeconds : null };
  } catch (error) {
    await removeBoth(left, right);
    throw error;
  }
}

async function removeBoth(left: string, right: string): Promise<void> {
  await Promise.all([rm(left, { force: true }), rm(right, { force: true })]);
}
