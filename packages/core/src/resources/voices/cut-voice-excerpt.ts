import { mediaStoreOf } from '../../platform/storage/configured-media-store.ts';
import { join } from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import type { VoiceRow } from '../../platform/db/schema.ts';
import { cutSpeechSpans } from '../../pipeline/voices/cut-speech-spans.ts';
import { findAccountPrediction } from '../portal/find-account-prediction.ts';
import type { ServiceContext } from '../../service-context.ts';
import { findPredictionRecording } from './find-prediction-recording.ts';

/** Whether a voice's sample excerpt can be played (the Voices page says which, without probing links). */
export type VoiceExcerptState = 'none' | 'stored' | 'gone';

/** The answer when a voice was enrolled from samples: only its voiceprint is stored. */
export const NO_EXCERPT_KEPT = 'No excerpt is kept of this voice: it was enrolled from samples, and only its voiceprint is stored.';
/** The answer when the recording a voice was taken from is no longer stored. */
export const EXCERPT_GONE =
  'The recording this voice was taken from is no longer stored, so there is no excerpt to play; the voiceprint itself is kept.';

/**
 * Whether `voice` has an excerpt to play: `none` (enrolled from samples: no source), `gone` (its
 * prediction is not the owner's any more or its recording is no longer stored) or `stored`. Links are
 * not probed here (findPredictionRecording `checkLink: false`); cutVoiceExcerpt does.
 */
export async function voiceExcerptState(ctx: ServiceContext, voice: VoiceRow, owner: string): Promise<VoiceExcerptState> {
  if (!voice.sourcePredictionId || !voice.sourceSpans?.length) return 'none';
  const row = await findAccountPrediction(ctx.database.db, voice.sourcePredictionId, owner).catch(() => null);
  if (!row) return 'gone';
  return (await findPredictionRecording(ctx, row, { checkLink: false })).kind === 'stored' ? 'stored' : 'gone';
}

/**
 * The sample excerpt of a voice enrolled from a transcript ("remember this voice"), cut on demand from
 * the prediction's stored recording (the spans it was enrolled from, at most 30 s) into
 * `workDir/excerpt.wav` (16 kHz mono WAV); the caller sends it and removes `workDir`. Nothing is kept.
 * @param db for the owner's prediction (findAccountPrediction).
 * @returns the path of the WAV.
 * @throws AppError `not_found` with NO_EXCERPT_KEPT (enrolled from samples) or EXCERPT_GONE (the
 *   recording is gone, the link no longer answers for a recording another user fetched); the media store's and ffmpeg's errors.
 */
export async function cutVoiceExcerpt(
  ctx: ServiceContext,
  db: Db,
  request: { voice: VoiceRow; owner: string; workDir: string; signal?: AbortSignal },
): Promise<string> {
  const { voice } = request;
  if (!voice.sourcePredictionId || !voice.sourceSpans?.length) throw new AppError('not_found', NO_EXCERPT_KEPT);
  const row = await findAccountPrediction(db, voice.sourcePredictionId, request.owner).catch(() => null);
  const recording = row
    ? await findPredictionRecording(ctx, row, { checkLink: true, ...(request.signal ? { signal: request.signal } : {}) })
    : null;
  if (recording?.kind !== 'stored') throw new AppError('not_found', EXCERPT_GONE);
  const source = await mediaStoreOf(ctx.config).open(recording.entry.path, join(request.workDir, 'source'), request.signal);
  const excerptPath = join(request.workDir, 'excerpt.wav');
  await cutSpeechSpans(source, excerptPath, voice.sourceSpans, request.signal);
  return excerptPath;
}
