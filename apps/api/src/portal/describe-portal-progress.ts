import type { PredictionRow } from '@transcribe/core';
import type { PortalTranslate } from './portal-i18n.ts';

/** Where a transcription stands, for the prediction page's progress bar. */
export interface PortalProgress {
  status: string;
  /** What is happening now, in words (the reader's language). */
  stage: string;
  /** 0..100, an estimate from the stages done. */
  percent: number;
  /** True for succeeded, failed and canceled (spec 3 terminal statuses, plus canceled). */
  done: boolean;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
const RECOGNIZED = /recognized (\d+)%/g;

/**
 * Reads a prediction's progress from its status and `logs` lines (resources/predictions/run/run-prediction.ts,
 * pipeline/recognize/transcribe-recording.ts): queue → download → decode → speech detection →
 * recognition (its percentage, without a number while it stands at 0 %, as the bot says it) →
 * post-processing → done; stage words in the reader's language (`t`).
 */
export function describePortalProgress(
  row: Pick<PredictionRow, 'status' | 'startedAt' | 'logs' | 'error'>,
  t: PortalTranslate,
): PortalProgress {
  const { status, logs } = row;
  const at = (stage: string, percent: number): PortalProgress => ({ status, stage, percent, done: TERMINAL.has(status) });
  if (status === 'succeeded') return at(t('portal-status-done'), 100);
  if (status === 'failed') return at(t('portal-status-failed', { error: row.error ?? t('portal-status-failed-unknown') }), 100);
  if (status === 'canceled') return at(t('portal-status-canceled'), 100);
  if (row.startedAt === null) return at(t('portal-status-waiting'), 2);
  if (logs.includes('post-processing')) return at(t('portal-status-post-processing'), 92);
  if (logs.includes('transcript taken from the cache')) return at(t('portal-status-cache'), 90);
  const percent = Math.max(-1, ...[...logs.matchAll(RECOGNIZED)].map((match) => Number(match[1])));
  if (percent >= 100) return at(t('portal-status-finishing'), 95);
  if (percent > 0) return at(t('portal-status-recognising-percent', { percent }), 20 + Math.round(percent * 0.75));
  if (percent === 0 || logs.includes('VAD:')) return at(t('portal-status-recognising'), 20);
  if (logs.includes('decoded ')) return at(t('portal-status-looking'), 15);
  return at(t('portal-status-getting'), 5);
}
