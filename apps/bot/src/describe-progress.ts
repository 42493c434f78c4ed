import type { PredictionRow } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';

/** What is known about one chat transcription at a moment. */
export interface ProgressState {
  /** Bytes received from Telegram, or null while downloading. */
  downloadedBytes: number | null;
  /** The prediction as last read, or null before it exists. */
  prediction: Pick<PredictionRow, 'status' | 'startedAt' | 'logs'> | null;
  /** Transcriptions a worker takes before this one while it waits (core countPredictionsAhead: the fair order), or null when unknown. */
  ahead?: number | null;
  /** Estimated minutes until a worker takes it (the queue's estimate), or null when unknown. */
  waitMinutes?: number | null;
}

const DECODED = /decoded ([\d.]+) s of audio/;
const SPEECH = /VAD: (?:no speech|\d+ speech intervals?, ([\d.]+) s of speech)/;
const RECOGNIZED = /recognized (\d+)%/g;

/**
 * The text of the one status message the bot edits while a recording is transcribed:
 * one line per stage, ✅ when finished, ⏳ for the stage in progress. Stages come from the
 * prediction's log lines (resources/predictions/run/run-prediction.ts, pipeline/recognize/transcribe-recording.ts).
 * In the reader's language (`t`); seconds are shown with one decimal, in the reader's number format
 * (Fluent NUMBER: `11.0` in English, `11,0` in Russian). Recognition at 0 % shows no number: a short
 * clip is recognised in one piece, and "0%" standing still for all of it reads as stuck.
 */
export function describeProgress(state: ProgressState, t: Translate): string {
  const lines = [
    state.downloadedBytes === null ? t('progress-downloading') : t('progress-received', { size: formatSize(state.downloadedBytes, t) }),
  ];
  const row = state.prediction;
  if (row === null) return lines.join('\n');
  if (row.startedAt === null) {
    lines.push(describeWait(state.ahead ?? null, t));
    if (state.waitMinutes !== null && state.waitMinutes !== undefined)
      lines.push(t('progress-waiting-eta', { minutes: state.waitMinutes }));
    return lines.join('\n');
  }
  const decoded = DECODED.exec(row.logs);
  lines.push(decoded ? t('progress-decoded', { seconds: Number(decoded[1]) }) : t('progress-decoding'));
  if (!decoded) return lines.join('\n');
  const speech = SPEECH.exec(row.logs);
  if (!speech) return [...lines, t('progress-looking')].join('\n');
  if (speech[1] === undefined) return [...lines, t('progress-no-speech')].join('\n');
  lines.push(t('progress-speech', { seconds: Number(speech[1]) }));
  const percent = Math.max(0, ...[...row.logs.matchAll(RECOGNIZED)].map((match) => Number(match[1])));
  const recognised = percent >= 100 || row.status === 'succeeded';
  lines.push(
    recognised ? t('progress-recognised') : percent > 0 ? t('progress-recognising', { percent }) : t('progress-recognising-started'),
  );
  return lines.join('\n');
}

/** `⏳ Waiting in the queue (3 ahead)…`, `(next in line)`, or without a place when it is unknown. */
function describeWait(ahead: number | null, t: Translate): string {
  if (ahead === null) return t('progress-waiting');
  return ahead === 0 ? t('progress-waiting-next') : t('progress-waiting-ahead', { ahead });
}

/** 2_000_000 → `1.9 MiB` (`1,9 МиБ` in Russian); small files in KiB: 53248 → `52 KiB`. */
export function formatSize(bytes: number, t: Translate): string {
  if (bytes >= 0.1 * 1024 * 1024) return t('size-mib', { value: Math.round((bytes / 1048576) * 10) / 10 });
  return t('size-kib', { value: Math.max(1, Math.round(bytes / 1024)) });
}
