import type { Response } from 'express';
import { AppError, getSucceededTranscript, type AnnouncedSegment, type PredictionEvent, type ServiceContext } from '@transcribe/core';
import { logUnexpectedError } from '../logging/log-unexpected-error.ts';
import { answerOfTranscript, renderAudioResponse } from './render-audio-response.ts';
import { runAudioPrediction, type AudioPredictionRequest } from './run-audio-prediction.ts';
import { openAiErrorOf } from './send-openai-error.ts';

/**
 * Answers `POST /v1/audio/transcriptions` with `stream=true` as server-sent events, in the frames of
 * OpenAI's API reference ("Stream events" of Create transcription; openai-node
 * `TranscriptionTextDeltaEvent` / `TranscriptionTextDoneEvent`):
 * - `data: {"type":"transcript.text.delta","delta":"…"}` for each segment as soon as the engine has
 *   recognised it (the worker announces it: core announce-early-segment.ts, in the order of the
 *   recording), the first without and every later one with a leading space;
 * - then `data: {"type":"transcript.text.done","text":"…","usage":{"type":"duration","seconds":…}}`,
 *   `text` being the finished transcript's (after spelling hints: it may differ from the deltas
 *   joined), `seconds` the recording's length;
 * - then `data: [DONE]`.
 * The status and headers go out with the first frame: until then a failure is an ordinary OpenAI
 * error answer (its status); after it, an error frame `data: {"error":{message,type,param,code}}`
 * (which the openai SDKs throw as APIError), and the stream ends. When no segment was announced
 * (an engine that cannot report early), the whole text is one delta before `done`.
 * @throws what runAudioPrediction throws, when nothing was sent yet.
 */
export async function streamTranscription(
  ctx: ServiceContext,
  res: Response,
  request: Omit<AudioPredictionRequest, 'onCreated'>,
): Promise<void> {
  const follower = followSegments(ctx, (text) => sendFrame(res, { type: 'transcript.text.delta', delta: text }));
  try {
    const row = await runAudioPrediction(ctx, {
      ...request,
      onCreated: (created) => {
        res.locals.predictionId = created.id;
        follower.follow(created.id);
      },
    });
    const transcript = getSucceededTranscript(row);
    const text = renderAudioResponse(answerOfTranscript(transcript), 'text', ['segment']).body.slice(0, -1); // the json answer's text
    follower.stop();
    if (!follower.sentAny() && text !== '') sendFrame(res, { type: 'transcript.text.delta', delta: text });
    sendFrame(res, { type: 'transcript.text.done', text, usage: { type: 'duration', seconds: roundSeconds(transcript.source.length) } });
    res.end('data: [DONE]\n\n');
  } catch (error) {
    follower.stop();
    if (!res.headersSent) throw error;
    if (res.writableEnded || res.destroyed) return;
    if (!(error instanceof AppError)) logUnexpectedError(res, 'openai', error);
    const known =
      error instanceof AppError
        ? error
        : new AppError('internal', 'An internal error occurred. Try again; if it repeats, tell the operator.');
    res.end(`data: ${JSON.stringify(openAiErrorOf(known, fieldOfParam).body)}\n\n`);
  }
}

function fieldOfParam(param: string): string {
  return param === 'audio' || param === 'input' ? 'file' : param;
}

/** OpenAI gives usage seconds as a number; the service's to the millisecond. */
function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** Writes one SSE frame, sending the status and headers first when it is the first. */
function sendFrame(res: Response, event: Record<string, unknown>): void {
  if (res.writableEnded || res.destroyed) return;
  if (!res.headersSent) {
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
  }
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

/**
 * Listens to `segment` events from before the prediction exists (its first text may come before its
 * id is known here) and passes its texts on in `seq` order, each once (a segment may arrive twice:
 * in this process and through PostgreSQL, apps/api/src/http/relay-early-segments.ts).
 */
function followSegments(ctx: ServiceContext, send: (text: string) => void) {
  const early: PredictionEvent[] = [];
  const waiting = new Map<number, AnnouncedSegment>();
  let id: string | null = null;
  let next = 0;
  const take = (event: PredictionEvent) => {
    if (event.type !== 'segment' || !event.segment || event.predictionId !== id || event.segment.seq < next) return;
    waiting.set(event.segment.seq, event.segment);
    for (let segment = waiting.get(next); segment; segment = waiting.get(next)) {
      waiting.delete(next);
      send(next++ === 0 ? segment.text : ` ${segment.text}`);
    }
  };
  const unsubscribe = ctx.predictionEvents.subscribe((event) => {
    if (event.type !== 'segment') return;
    if (id === null) early.push(event);
    else take(event);
  });
  return {
    follow(predictionId: string) {
      id = predictionId;
      for (const event of early.splice(0)) take(event);
    },
    sentAny: () => next > 0,
    stop: unsubscribe,
  };
}
