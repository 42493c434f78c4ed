import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service-context.ts';
import type { AnnouncedSegment } from './prediction-events.ts';

/**
 * The PostgreSQL channel on which workers announce recognised text of running predictions; the
 * payload is `{"id": predictionId, "seq", "start", "end", "text"}` (JSON). Followed by the API
 * processes that stream a prediction's text (apps/api/src/http/relay-early-segments.ts).
 */
export const PREDICTION_SEGMENTS_CHANNEL = 'transcribe_prediction_segments';

/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes (docs: NOTIFY); the text is cut to stay under it. */
const MAX_TEXT_CHARS = 1500;

/**
 * Announces one piece of text of prediction `id` as soon as the engine recognised it, for a client
 * that follows it live (the OpenAI endpoint's `stream=true`, docs/live.md): published as a `segment`
 * event on `ctx.predictionEvents` (this process), and on PostgreSQL also sent on
 * PREDICTION_SEGMENTS_CHANNEL for API processes apart from the worker. A text longer than
 * 1500 characters is cut there (NOTIFY's 8000-byte payload limit); the finished transcript has it all.
 * Never throws: a lost announcement only delays text to the end; a failure is logged.
 */
export async function announceEarlySegment(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
  segment: AnnouncedSegment,
): Promise<void> {
  void ctx.predictionEvents.publish({ type: 'segment', predictionId: id, segment });
  if (ctx.database.kind !== 'postgres') return;
  const payload = JSON.stringify({ id, ...segment, text: segment.text.slice(0, MAX_TEXT_CHARS) });
  try {
    await ctx.database.db.execute(sql`SELECT pg_notify(${PREDICTION_SEGMENTS_CHANNEL}, ${payload})`);
  } catch (error) {
    ctx.logger?.warn(
      { component: 'predictions', prediction: id },
      `recognised text of prediction ${id} could not be announced to other processes: ${(error as Error).message}`,
    );
  }
}

/**
 * Reads a payload of PREDICTION_SEGMENTS_CHANNEL.
 * @returns the prediction id and segment, or null when the payload is not one.
 */
export function parseSegmentPayload(payload: string): { predictionId: string; segment: AnnouncedSegment } | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    const { id, seq, start, end, text } = value;
    if (typeof id !== 'string' || typeof seq !== 'number' || typeof text !== 'string') return null;
    if (typeof start !== 'number' || typeof end !== 'number') return null;
    return { predictionId: id, segment: { seq, start, end, text } };
  } catch {
    return null;
  }
}
