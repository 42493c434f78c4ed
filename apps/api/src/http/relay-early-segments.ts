import { PREDICTION_SEGMENTS_CHANNEL, parseSegmentPayload, type ServiceContext } from '@transcribe/core';

/**
 * On PostgreSQL, republishes the recognised text that workers of other processes announce on
 * PREDICTION_SEGMENTS_CHANNEL (core announce-early-segment.ts) as `segment` events on this process's
 * `ctx.predictionEvents`, where the streamed transcriptions follow it (openai/stream-transcription.ts).
 * A worker in this process publishes here directly as well; listeners keep the first of each `seq`.
 * On PGlite every worker is in this process: nothing to relay.
 * @returns the function that ends the subscription.
 * @throws Error from the driver when the subscription cannot be made.
 */
export async function relayEarlySegments(ctx: Pick<ServiceContext, 'database' | 'predictionEvents'>): Promise<() => Promise<void>> {
  if (ctx.database.kind !== 'postgres') return async () => {};
  const unlisten = await ctx.database.listen(PREDICTION_SEGMENTS_CHANNEL, (payload) => {
    const announced = parseSegmentPayload(payload);
    if (announced) void ctx.predictionEvents.publish({ type: 'segment', ...announced });
  });
  return () => unlisten().catch(() => {});
}
