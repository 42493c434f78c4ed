import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import type { PredictionRow, VoiceRow, VoiceSourceSpan } from '../../platform/db/schema.ts';
import { mediaStoreOf } from '../../platform/storage/configured-media-store.ts';
import { cutSpeechSpans } from '../../pipeline/voices/cut-speech-spans.ts';
import { CLUSTER_SECONDS, longestTurns } from '../../pipeline/voices/identify-speakers.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';
import type { ServiceContext } from '../../service-context.ts';
import { checkVoiceRoom, createVoice } from './create-voice.ts';
import { findPredictionRecording } from './find-prediction-recording.ts';

/** Why a recording cannot give a voice or an excerpt, in the words the portal shows (English; the portal translates). */
export const RECORDING_NOT_KEPT =
  'The recording of this transcript is not kept (uploaded files are deleted once transcribed), so the voice cannot be taken from it. Enroll it with a sample instead (POST /v1/voices).';
export const RECORDING_GONE =
  'The recording of this transcript is no longer stored (stored recordings are kept for a limited time), so the voice cannot be taken from it.';

/**
 * A speaker's spans in a transcript: its segments as turns, the longest first until CLUSTER_SECONDS
 * (30 s, the longest enrollment sample) are taken (longestTurns, as known voices embed a cluster), in
 * time order, times rounded to milliseconds.
 */
export function speakerSpans(row: PredictionRow, label: string): VoiceSourceSpan[] {
  const turns = (row.transcript?.segments ?? [])
    .filter((segment) => segment.speaker === label && segment.end > segment.start)
    .map((segment) => ({ start: segment.start, end: segment.end, speaker: label }));
  return longestTurns(turns, CLUSTER_SECONDS).map((turn) => ({
    start: Math.round(turn.start * 1000) / 1000,
    end: Math.round(turn.end * 1000) / 1000,
  }));
}

/**
 * "Remember this voice" (the portal's rename, docs/speakers.md): enrolls the voice of one speaker of a
 * finished prediction in the account's registry under `name`, with the use-case of `POST /v1/voices`
 * (createVoice), so the same refusals hold. The account's room and the name are checked first; then
 * the prediction's stored recording is found (findPredictionRecording, link checked), the speaker's
 * spans (speakerSpans) are cut from it into one sample in a work folder (cutSpeechSpans), which
 * createVoice measures (2–30 s, speech found, one voice) and deletes; the folder is removed. The voice
 * keeps the prediction id and the spans as its source (no audio), for the portal's excerpt.
 * @param request.account the voice account (voiceAccountOf; the portal's owner).
 * @param request.name already checked (checkSpeakerName).
 * @returns the new voice.
 * @throws AppError `conflict` (409: account full, name taken); `not_found` (no such speaker);
 *   `invalid_input` param `samples` (the sample's refusals: too short, no speech, two voices) and
 *   param `recording` with RECORDING_NOT_KEPT or RECORDING_GONE (422); the media store's errors.
 */
export async function rememberPredictionVoice(
  ctx: ServiceContext,
  request: { account: string; row: PredictionRow; label: string; name: string; signal?: AbortSignal },
): Promise<VoiceRow> {
  await checkVoiceRoom(ctx, request.account, request.name);
  const spans = speakerSpans(request.row, request.label);
  if (spans.length === 0) throw new AppError('not_found', `This transcript has no speech of ${request.label.slice(0, 64)}.`);
  const recording = await findPredictionRecording(ctx, request.row, {
    checkLink: true,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (recording.kind === 'upload') throw new AppError('invalid_input', RECORDING_NOT_KEPT, { param: 'recording' });
  if (recording.kind === 'gone') throw new AppError('invalid_input', RECORDING_GONE, { param: 'recording' });
  const workDir = join(ctx.config.dataDir, 'work', `voice-${newPredictionId()}`);
  await mkdir(workDir, { recursive: true });
  try {
    const source = await mediaStoreOf(ctx.config).open(recording.entry.path, join(workDir, 'source'), request.signal);
    const samplePath = join(workDir, 'sample.wav');
    await cutSpeechSpans(source, samplePath, spans, request.signal);
    return await createVoice(ctx, {
      account: request.account,
      name: request.name,
      samples: [{ kind: 'file', path: samplePath }],
      source: { predictionId: request.row.id, spans },
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
