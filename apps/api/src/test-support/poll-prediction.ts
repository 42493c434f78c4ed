import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `GET {replicateBase}/v1/predictions/{id}` until a terminal status, as the clients do. */
export async function pollPrediction(
  replicateBase: string,
  key: string,
  id: string,
  timeoutMs = 120_000,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${replicateBase}/v1/predictions/${id}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (['succeeded', 'failed', 'canceled'].includes(String(body.status))) return body;
    if (Date.now() > deadline) throw new Error(`prediction ${id} still ${String(body.status)} after ${timeoutMs} ms`);
    await sleep(250);
  }
}
