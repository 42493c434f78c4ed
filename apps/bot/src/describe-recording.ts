import type { Translate } from './bot-i18n.ts';

/** The file name the bot gives a voice message (Telegram sends none). */
export const VOICE_FILE_NAME = 'voice.ogg';
/** The file name the bot gives a video note. */
export const VIDEO_NOTE_FILE_NAME = 'video-note.mp4';

/** A recording as the bot knows it: its file name, its length when known, and when it was sent or queued. */
export interface RecordingFacts {
  fileName: string;
  /** Seconds (Telegram's stated length, or the probed one), or null when unknown. */
  durationSeconds: number | null;
  sentAt: Date;
}

/** Who reads: texts and bot language. */
export interface Reader {
  t: Translate;
  locale: string;
}

/**
 * A recording named for people: `Voice message` and `Video note` for the ones Telegram sends without
 * a name (find-media.ts names them `voice.ogg`, `video-note.mp4`), else the file's own name.
 */
export function recordingTitle(fileName: string, t: Translate): string {
  if (fileName === VOICE_FILE_NAME) return t('recording-voice');
  if (fileName === VIDEO_NOTE_FILE_NAME) return t('recording-video-note');
  return fileName;
}

/** Seconds as `m:ss` (`h:mm:ss` from an hour): 4.2 → `0:04`, 3725 → `1:02:05`. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * How long ago `then` was, in the reader's language (Intl.RelativeTimeFormat): `45 seconds ago`,
 * `3 minutes ago`, `2 hours ago`, `yesterday`; `2 минуты назад` in Russian. Relative, because the
 * bot does not know the person's time zone.
 */
export function formatAgo(then: Date, now: Date, locale: string): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (seconds < 60) return format.format(-seconds, 'second');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour');
  return format.format(-Math.floor(seconds / 86_400), 'day');
}

/** A date and time in UTC for file headings: `10 March 2026, 12:04 UTC`, `10 марта 2026 г., 12:04 UTC`. */
export function formatDateTime(date: Date, locale: string): string {
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' }).format(date)} UTC`;
}

/**
 * One recording in a list (/cancel), told apart from the others by its length and when it was
 * sent: `Voice message, 0:04, sent 2 minutes ago`; without a known length, `talk.mp3, sent 2 minutes ago`.
 */
export function describeRecording(recording: RecordingFacts, reader: Reader, now = new Date()): string {
  const title = recordingTitle(recording.fileName, reader.t);
  const ago = formatAgo(recording.sentAt, now, reader.locale);
  if (recording.durationSeconds === null) return reader.t('recording-label-no-duration', { title, ago });
  return reader.t('recording-label', { title, duration: formatDuration(recording.durationSeconds), ago });
}
