import type { Transcript } from '../../contract/output/transcript-model.ts';
import { predictions } from '../../platform/db/schema.ts';
import type { ServiceContext } from '../../service-context.ts';
import { renderTranscript } from '../../pipeline/render/render-transcript.ts';
import { shapeOutput } from '../../pipeline/render/shape-output.ts';
import { stampLogLine } from '../predictions/append-prediction-log.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';
import { chargePrediction } from '../billing/charge-prediction.ts';

export interface LiveSessionRecord {
  sessionId: string;
  apiKeyId: string;
  startedAt: Date;
  endedAt: Date;
  /** Seconds of audio the client sent (what is charged). */
  audioSeconds: number;
  /** Spec 2.5 code the session was set to, or null. */
  language: string | null;
  /** The recognised turns, times in seconds on the session's audio clock. */
  turns: { start: number; end: number; text: string }[];
  /** Cache namespace of the stored prediction (spec 2.6.6): `api` (default) or `portal` (the portal's Live page). */
  namespace?: 'api' | 'portal';
}

/**
 * Stores an ended live session (docs/live.md) as a finished prediction in the `api` namespace (or
 * `session.namespace`: `portal` for the portal's Live page),
 * status `succeeded`, its transcript the session's turns, and charges its audio seconds through
 * chargePrediction (reason `recognition`), so the usage ledger, `GET …/v1/account`, the prediction
 * list and the portal show it like any other transcription of the key. Its `input` is
 * `{"live_session": id}`; it never went through the job queue and has no recording stored.
 * A session with no audio is not recorded.
 * @returns the prediction id, or null when nothing was recorded.
 * @throws the database's error.
 */
export async function recordLiveSession(
  ctx: Pick<ServiceContext, 'database' | 'config'>,
  session: LiveSessionRecord,
): Promise<string | null> {
  if (session.audioSeconds <= 0) return null;
  const language = session.language ?? (session.turns.length > 0 ? 'en' : null);
  const transcript: Transcript = {
    source: { length: session.audioSeconds, format: 'live' },
    segments: session.turns
      .filter((turn) => turn.text !== '')
      .map((turn) => ({ start: turn.start, end: turn.end, text: turn.text, speaker: null, language, words: [] })),
    vad: session.turns.map((turn) => ({ start: turn.start, end: turn.end })),
    language: session.turns.some((turn) => turn.text !== '') ? language : null,
    languages: [],
    speakers: [],
  };
  const id = newPredictionId();
  const db = ctx.database.db;
  await db.insert(predictions).values({
    id,
    apiKeyId: session.apiKeyId,
    namespace: session.namespace ?? 'api',
    status: 'succeeded',
    input: { live_session: session.sessionId },
    params: {
      audio: `live:${session.sessionId}`,
      language: session.language,
      speakers: null,
      output_format: 'json',
      domain: null,
      efficiency: null,
      multilingual: null,
      prompt: null,
      hotwords: [],
      post_process: null,
      custom_prompt: null,
      target_language: null,
    },
    source: { kind: 'upload', path: '', bytes: 0 },
    output: shapeOutput(renderTranscript(transcript, 'json'), null, {}),
    transcript,
    logs:
      stampLogLine(
        `live session ${session.sessionId}: ${session.turns.length} turns, ${session.audioSeconds.toFixed(1)} s of audio`,
        session.startedAt,
      ) + stampLogLine('succeeded', session.endedAt),
    audioSeconds: session.audioSeconds,
    predictTime: (session.endedAt.getTime() - session.startedAt.getTime()) / 1000,
    createdAt: session.startedAt,
    startedAt: session.startedAt,
    completedAt: session.endedAt,
  });
  await chargePrediction(db, {
    predictionId: id,
    apiKeyId: session.apiKeyId,
    mediaId: null,
    audioSeconds: session.audioSeconds,
    usedCachedTranscript: false,
    pricePerMinute: ctx.config.pricePerMinute,
    windowDays: ctx.config.cacheTtlDays,
  });
  return id;
}
