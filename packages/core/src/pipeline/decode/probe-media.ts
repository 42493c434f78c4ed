import { AppError } from '../../platform/errors/app-error.ts';
import { runMediaTool } from './run-media-tool.ts';

/** What ffprobe says about a recording. */
export interface MediaProbe {
  /**
   * Length in seconds: the container's duration, else the audio stream's (or its DURATION tag), else NaN
   * when nothing states it (some streamed WebM/Ogg); decodeToPcm then gives the exact length from the decoded size.
   */
  durationSeconds: number;
  /** ffprobe's format name, e.g. `wav`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /** Number of audio streams (at least 1). */
  audioStreams: number;
  /** Channels of the chosen audio stream (the default-marked one, else the first). */
  channels: number;
  /** Sample rate of the chosen audio stream, in Hz. */
  sampleRate: number;
  /** Codec of the chosen audio stream, e.g. `pcm_s16le`, `opus`, `flac`. */
  codec: string;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  sample_rate?: string;
  duration?: string;
  disposition?: { default?: number };
  tags?: Record<string, string>;
}
interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

/** Formats that point at other files or URLs (playlists) or are not recordings at all. */
const REFUSED_FORMATS = new Set(['hls', 'applehttp', 'concat', 'dash', 'tty', 'srt', 'webvtt', 'ass']);
const UNREADABLE = 'The file is not a recording we can read (audio or video).';

/**
 * Probes `path` with `ffprobe -v error -print_format json -show_format -show_streams` (file protocol only,
 * so a playlist cannot make ffprobe reach the network). Spec 2.2: `audio` is one audio or video recording.
 * @param options.timeoutMs ffprobe is killed after this many ms (default 30 000).
 * @throws AppError `media_unreadable` (not media, damaged, a playlist or image, probe timeout),
 *   `media_no_audio` (a video without an audio stream), both with param `audio`; the signal's reason on abort.
 */
export async function probeMedia(path: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<MediaProbe> {
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-print_format', 'json', '-show_format', '-show_streams'];
  const run = await runMediaTool('ffprobe', [...args, `file:${path}`], {
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (run.timedOut) throw unreadable('Reading the file took too long; it may be damaged.', run.stderr);
  if (run.exitCode !== 0) throw unreadable(UNREADABLE, run.stderr);
  return describeProbe(parseProbeOutput(run.stdout), run.stderr);
}

function parseProbeOutput(stdout: string): ProbeOutput {
  try {
    return JSON.parse(stdout) as ProbeOutput;
  } catch (error) {
    throw unreadable(UNREADABLE, error);
  }
}

function describeProbe(output: ProbeOutput, stderr: string): MediaProbe {
  const formatName = output.format?.format_name ?? '';
  const streams = output.streams ?? [];
  const audio = streams.filter((stream) => stream.codec_type === 'audio');
  const isImage = formatName === 'image2' || formatName.endsWith('_pipe');
  if (formatName === '' || REFUSED_FORMATS.has(formatName) || (audio.length === 0 && isImage)) {
    throw unreadable(UNREADABLE, `ffprobe format "${formatName}" refused. ${stderr}`);
  }
  const chosen = audio.find((stream) => stream.disposition?.default === 1) ?? audio[0];
  if (chosen === undefined) {
    if (streams.some((stream) => stream.codec_type === 'video')) {
      throw new AppError('media_no_audio', 'The file has no audio track.', { param: 'audio' });
    }
    throw unreadable(UNREADABLE, stderr);
  }
  return {
    durationSeconds: pickDuration(output.format?.duration, chosen),
    formatName,
    audioStreams: audio.length,
    channels: chosen.channels ?? 0,
    sampleRate: Number(chosen.sample_rate ?? 0),
    codec: chosen.codec_name ?? 'unknown',
  };
}

/** Container duration, else the stream's, else its DURATION tag (HH:MM:SS.fraction), else NaN. */
function pickDuration(formatDuration: string | undefined, stream: ProbeStream): number {
  for (const candidate of [formatDuration, stream.duration]) {
    const seconds = Number(candidate);
    if (candidate !== undefined && Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  const tag = stream.tags?.DURATION ?? stream.tags?.duration;
  const match = tag?.match(/^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/);
  if (match) return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  return Number.NaN;
}

/** `detail` (ffprobe's stderr or an Error) goes to `cause`, for logs only. */
function unreadable(message: string, detail: unknown): AppError {
  const cause = detail instanceof Error ? detail : new Error(String(detail));
  return new AppError('media_unreadable', message, { param: 'audio', cause });
}
