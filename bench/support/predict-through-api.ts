/**
 * Drives the real service over HTTP the way a client does (create, then poll), and times the engine
 * inside it, so a benchmark can split a prediction's time into the engine's and the pipeline's own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecognitionEngine, ServiceContext } from '@transcribe/core';

export interface FinishedPrediction {
  id: string;
  status: string;
  /** Server-side `metrics.total_time`: created_at → completed_at, seconds. */
  totalSeconds: number;
  /** Client-side: POST sent → terminal status seen (polling every `pollMs`), seconds. */
  wallSeconds: number;
  body: Record<string, unknown>;
}

/**
 * POSTs `input` to `{replicateBase}/v1/models/service/transcribe/predictions` and polls the
 * prediction every `pollMs` until it ends.
 * @throws Error when the create request is refused, the prediction does not succeed, or it runs
 *   past `timeoutMs`.
 */
export async function predictAndWait(
  replicateBase: string,
  key: string,
  input: Record<string, unknown>,
  options: { pollMs?: number; timeoutMs?: number } = {},
): Promise<FinishedPrediction> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const started = performance.now();
  const created = await fetch(`${replicateBase}/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ input }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const deadline = Date.now() + (options.timeoutMs ?? 3_600_000);
  for (;;) {
    const body = (await (await fetch(`${replicateBase}/v1/predictions/${id}`, { headers })).json()) as Record<string, unknown>;
    if (['succeeded', 'failed', 'canceled'].includes(String(body.status))) {
      const wallSeconds = (performance.now() - started) / 1000;
      if (body.status !== 'succeeded') throw new Error(`prediction ${id} ended ${String(body.status)}: ${String(body.error)}`);
      const metrics = body.metrics as { total_time: number };
      return { id, status: String(body.status), totalSeconds: metrics.total_time, wallSeconds, body };
    }
    if (Date.now() > deadline) throw new Error(`prediction ${id} still ${String(body.status)} after ${options.timeoutMs} ms`);
    await sleep(options.pollMs ?? 100);
  }
}

export interface EngineTimer {
  /** Seconds spent in `recognize` calls since the last `take()`, then reset. */
  take(): number;
}

/**
 * Replaces `ctx.engine` with a wrapper that adds up the wall time of its `recognize` calls, so the
 * engine's share of a prediction run by this in-process service can be subtracted.
 */
export function timeEngine(ctx: ServiceContext): EngineTimer {
  const engine: RecognitionEngine = ctx.engine;
  let seconds = 0;
  ctx.engine = {
    name: engine.name,
    languages: engine.languages,
    defaultLanguage: engine.defaultLanguage,
    recognize: async (request) => {
      const started = performance.now();
      try {
        return await engine.recognize(request);
      } finally {
        seconds += (performance.now() - started) / 1000;
      }
    },
  };
  return {
    take: () => {
      const taken = seconds;
      seconds = 0;
      return taken;
    },
  };
}
