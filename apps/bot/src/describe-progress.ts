import { formatMebibytes, type PredictionRow } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';

/** What is known about one chat transcription at a moment. */
export interface ProgressState {
  /** Bytes received from Telegram, or null while downloading. */
  downloadedBytes: number | null;
  /** The prediction as last read, or null before it exists. */
  prediction: Pick<PredictionRow, 'status' | 'startedAt' | 'logs'> | null;
  /** Transcriptions a worker takes before this one while it waits (count-transcribe-jobs-ahead), or null when unknown. */
  ahead?: number | null;
}

const DECODED = /decoded ([\d.]+) s of audio/;
const SPEECH = /VAD: (?:no speech|\d+ speech intervals?, ([\d.]+) s of speech)/;
const RECOGNIZED = /recognized (\d+)%/g;

/**
 * The text of the one status message the bot edits while a recording is transcribed:
 * one line per stage, ✅ when finished, ⏳ for the stage in progress. Stages come from the
 * prediction's log lines (pipeline/run-prediction.ts, pipeline/recognize/transcribe-recording.ts).
 * In the reader's language (`t`); seconds are shown with one decimal.
 */
export function describeProgress(state: ProgressState, t: Translate): string {
  const lines = [
    state.downloadedBytes === null ? t('progress-downloading') : t('progress-received', { size: formatSize(state.downloadedBytes) }),
  ];
  const row = state.prediction;
  if (row === null) return lines.join('\n');
  if (row.startedAt === null) return [...lines, describeWait(state.ahead ?? null, t)].join('\n');
  const decoded = DECODED.exec(row.logs);
  lines.push(decoded ? t('progress-decoded', { seconds: Number(decoded[1]).toFixed(1) }) : t('progress-decoding'));
  if (!decoded) return lines.join('\n');
  const speech = SPEECH.exec(row.logs);
  if (!speech) return [...lines, t('progress-looking')].join('\n');
  if (speech[1] === undefined) return [...lines, t('progress-no-speech')].join('\n');
  lines.push(t('progress-speech', { seconds: Number(speech[1]).toFixed(1) }));
  const percent = Math.max(0, ...[...row.logs.matchAll(RECOGNIZED)].map((match) => Number(match[1])));
  const recognised = percent >= 100 || row.status === 'succeeded';
  lines.push(recognised ? t('progress-recognised') : t('progress-recognising', { percent }));
  return lines.join('\n');
}

/** `⏳ Waiting in the queue (3 ahead)…`, `(next in line)`, or without a place when it is unknown. */
function describeWait(ahead: number | null, t: Translate): string {
  if (ahead === null) return t('progress-waiting');
  return ahead === 0 ? t('progress-waiting-next') : t('progress-waiting-ahead', { ahead });
}

/** 2_000_000 → `1.9 MiB`; small files in KiB: 53248 → `52 KiB`. */
export function formatSize(bytes: number): string {
  return bytes >= 0.1 * 1024 * 1024 ? formatMebibytes(bytes) : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}
