import { AppError } from '../../platform/errors/app-error.ts';
import { runMediaTool } from '../decode/run-media-tool.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';

/** How long ffmpeg may take to cut an excerpt, ms. */
const CUT_TIMEOUT_MS = 60_000;

/**
 * Writes a short excerpt of `regions` of a recording as OGG/Opus (48 kHz mono, 32 kbit/s: what
 * Telegram plays as a voice message): the regions joined in time order, ffmpeg's `aselect` keeping
 * only their samples (`asetpts` closing the gaps).
 * @param regions seconds of the recording, in time order, not overlapping (e.g. chooseExcerpt's).
 * @returns the excerpt's length in seconds.
 * @throws AppError `media_unreadable` when ffmpeg fails; RangeError for no regions; the signal's reason on abort.
 */
export async function cutSpeechExcerpt(
  mediaPath: string,
  regions: readonly TimeRegion[],
  outputPath: string,
  signal?: AbortSignal,
): Promise<number> {
  if (regions.length === 0) throw new RangeError('cutSpeechExcerpt needs at least one region');
  const select = regions.map((region) => `between(t,${region.start.toFixed(3)},${region.end.toFixed(3)})`).join('+');
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-protocol_whitelist',
    'file',
    '-i',
    `file:${mediaPath}`,
    '-vn',
    '-af',
    `aselect='${select}',asetpts=N/SR/TB`,
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-ar',
    '48000',
    '-ac',
    '1',
    '-f',
    'ogg',
    `file:${outputPath}`,
  ];
  const run = await runMediaTool('ffmpeg', args, { timeoutMs: CUT_TIMEOUT_MS, ...(signal ? { signal } : {}) });
  signal?.throwIfAborted();
  if (run.exitCode !== 0) {
    throw new AppError('media_unreadable', 'The excerpt of the recording could not be cut.', {
      cause: new Error(run.stderr),
      param: 'audio',
    });
  }
  return regions.reduce((sum, region) => sum + (region.end - region.start), 0);
}

/**
 * The part of a speaker's speech to play as their excerpt: from their longest region, `seconds` long
 * (centred in it); when that region is shorter, the next longest are added until `seconds` are taken
 * (the last one cut). In time order.
 */
export function chooseExcerpt(regions: readonly TimeRegion[], seconds: number): TimeRegion[] {
  const taken: TimeRegion[] = [];
  let left = seconds;
  for (const region of [...regions].sort((a, b) => b.end - b.start - (a.end - a.start))) {
    if (left <= 0.05) break;
    const length = region.end - region.start;
    if (length <= left) {
      taken.push({ ...region });
      left -= length;
    } else {
      const start = region.start + (length - left) / 2;
      taken.push({ start, end: start + left });
      left = 0;
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
