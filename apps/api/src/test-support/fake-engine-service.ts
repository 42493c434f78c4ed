import { setTimeout as sleep } from 'node:timers/promises';
import { runScriptToEnd, type SpawnedService } from './spawn-service.ts';

/** Environment of a service (or `npm run worker`) that recognises with the fake engine (apps/api/test-support/create-fake-engine.ts). */
export function fakeEngineEnv(dataDir: string, databaseUrl: string | null, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORK: '1',
    RECOGNITION_ENGINE: 'fake',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, JOB_HEARTBEAT_MS: '500', JOB_LEASE_STALE_MS: '3000' } : {}),
    ...extra,
  };
}

/** Makes an API key with `npm run apikey -- create` (through the running service for PGlite); returns the secret. */
export async function createKeyWithCli(env: Record<string, string>, label = 'reliability'): Promise<string> {
  const made = await runScriptToEnd('apps/api/src/cli/apikey.ts', ['create', '--label', label], env);
  if (made.code !== 0) throw new Error(`apikey create failed:\n${made.stdout}\n${made.stderr}`);
  return made.stdout.trim().split('\n').at(-1)!;
}

/** `POST …/models/service/transcribe/predictions` with a JSON body; returns the new prediction's id. */
export async function createLinkPrediction(url: string, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/v1/replicate/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const created = (await response.json()) as { id?: string; detail?: string };
  if (response.status !== 201 || !created.id) throw new Error(`create answered ${response.status}: ${JSON.stringify(created)}`);
  return created.id;
}

/** `GET …/v1/predictions/{id}` as a plain object. */
export async function getPrediction(url: string, key: string, id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/v1/replicate/v1/predictions/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as Record<string, unknown>;
}

/** Polls every 50 ms until `check` holds for the prediction; throws after `timeoutMs`. */
export async function waitForPrediction(
  url: string,
  key: string,
  id: string,
  check: (prediction: Record<string, unknown>) => boolean,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const prediction = await getPrediction(url, key, id);
    if (check(prediction)) return prediction;
    if (Date.now() > deadline) throw new Error(`prediction ${id} did not reach the awaited state: ${JSON.stringify(prediction)}`);
    await sleep(50);
  }
}

/** Waits until a spawned process's output matches `pattern` (checked every 20 ms). */
export async function waitForOutput(service: Pick<SpawnedService, 'output'>, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(service.output())) {
    if (Date.now() > deadline) throw new Error(`output never matched ${pattern}:\n${service.output()}`);
    await sleep(20);
  }
}

/** How many lines of `logs` say `line` after their time stamp (a prediction that ran twice says `succeeded` twice). */
export function countLogLines(logs: unknown, line: string): number {
  return String(logs ?? '')
    .split('\n')
    .filter((entry) => entry.replace(/^\S+ /, '').trim() === line).length;
}

/** Terminal, with its closing log line written (`succeeded`, `failed: …`, `canceled`: logged just after the status). */
export function isSettled(prediction: Record<string, unknown>): boolean {
  if (!['succeeded', 'failed', 'canceled'].includes(String(prediction.status))) return false;
  return String(prediction.logs ?? '')
    .split('\n')
    .some((line) => /^\S+ (succeeded|failed|canceled)\b/.test(line));
}

/** How long a spawned service may take to start on a busy 2-core machine (PGlite start-up is slow), ms. */
export const SPAWN_TIMEOUT_MS = 180_000;

/** Time allowed for a test that starts and kills several service processes, ms. */
export const MULTI_PROCESS_TEST_TIMEOUT_MS = 600_000;
