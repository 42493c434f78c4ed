import type { PredictionRow } from '@transcribe/core';

/** Where a transcription stands, for the prediction page's progress bar. */
export interface PortalProgress {
  status: string;
  /** What is happening now, in words. */
  stage: string;
  /** 0..100, an estimate from the stages done. */
  percent: number;
  /** True for succeeded, failed and canceled (spec 3 terminal statuses, plus canceled). */
  done: boolean;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
const RECOGNIZED = /recognized (\d+)%/g;

/**
 * Reads a prediction's progress from its status and `logs` lines (pipeline/run-prediction.ts,
 * pipeline/recognize/transcribe-recording.ts): queue → download → decode → speech detection →
 * recognition (its percentage) → post-processing → done.
 */
export function describePortalProgress(row: Pick<PredictionRow, 'status' | 'startedAt' | 'logs' | 'error'>): PortalProgress {
  const { status, logs } = row;
  const at = (stage: string, percent: number): PortalProgress => ({ status, stage, percent, done: TERMINAL.has(status) });
  if (status === 'succeeded') return at('Done', 100);
  if (status === 'failed') return at(`Failed: ${row.error ?? 'the transcription did not finish.'}`, 100);
  if (status === 'canceled') return at('Canceled', 100);
  if (row.startedAt === null) return at('Waiting in the queue…', 2);
  if (logs.includes('post-processing')) return at('Post-processing the transcript…', 92);
  if (logs.includes('transcript taken from the cache')) return at('Transcript taken from the cache…', 90);
  const percent = Math.max(-1, ...[...logs.matchAll(RECOGNIZED)].map((match) => Number(match[1])));
  if (percent >= 100) return at('Finishing…', 95);
  if (percent >= 0) return at(`Recognising speech… ${percent}%`, 20 + Math.round(percent * 0.75));
  if (logs.includes('VAD:')) return at('Recognising speech…', 20);
  if (logs.includes('decoded ')) return at('Looking for speech…', 15);
  return at('Getting the recording…', 5);
}
