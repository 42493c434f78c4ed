import { decodeToPcm } from '../decode/decode-to-pcm.ts';
import { probeMedia } from '../decode/probe-media.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';

/**
 * Writes the `spans` of a recording, one after another, as a 16 kHz mono 16-bit WAV at `outputPath`
 * (decodeToPcm with the filter `aselect='between(t,a,b)+…',asetpts=N/SR/TB`, applied to the small
 * frames decodeToPcm cuts first, so a span starts and ends within 16 ms of its times). Used for a
 * speaker's turns: the sample "remember this voice" enrolls, and a voice's excerpt in the portal.
 * @param spans seconds from the start of the recording; at least one, each with end > start.
 * @returns the seconds written.
 * @throws RangeError for no span; the AppErrors of probeMedia and decodeToPcm (`media_unreadable`,
 *   `media_no_audio`); the signal's reason on abort.
 */
export async function cutSpeechSpans(
  inputPath: string,
  outputPath: string,
  spans: readonly TimeRegion[],
  signal?: AbortSignal,
): Promise<number> {
  const kept = spans.filter((span) => span.end > span.start);
  if (kept.length === 0) throw new RangeError('cutSpeechSpans needs at least one span');
  const probe = await probeMedia(inputPath, { ...(signal ? { signal } : {}) });
  const select = kept.map((span) => `between(t,${span.start.toFixed(3)},${span.end.toFixed(3)})`).join('+');
  const decoded = await decodeToPcm(inputPath, outputPath, {
    audioFilter: `aselect='${select}',asetpts=N/SR/TB`,
    statedSeconds: probe.durationSeconds,
    ...(signal ? { signal } : {}),
  });
  return decoded.durationSeconds;
}
