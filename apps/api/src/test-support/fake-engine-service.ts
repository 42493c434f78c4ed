import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { createApiKey, openDatabase } from '@transcribe/core';
import { readLiveServiceLock } from '../service-lock.ts';
import { type SpawnedService } from './spawn-service.ts';

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

/**
 * Makes an API key for a service started with `env` and returns its secret, without a process of its
 * own (a CLI process costs about 4 s of CPU to start): on PostgreSQL (`DATABASE_URL`) straight in the
 * database; on PGlite through the running service's loopback admin route with the token of its lock
 * file, the way `npm run apikey -- create` reaches a running service (service-lock.ts; the CLI itself
 * is tested as a process in cli/apikey.test.ts), or in the data directory's database when no service
 * runs there.
 * @throws when the service answers with an error.
 */
export async function createKeyFor(env: Record<string, string>, label = 'reliability'): Promise<string> {
  if (env.DATABASE_URL) return createInDatabase({ databaseUrl: env.DATABASE_URL }, label);
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const lock = await readLiveServiceLock(dataDir);
  if (!lock) return createInDatabase({ pgliteDir: join(dataDir, 'pglite') }, label);
  const response = await fetch(`http://127.0.0.1:${lock.port}/internal/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': lock.adminToken },
    body: JSON.stringify({ label }),
  });
  const created = (await response.json()) as { secret?: string; detail?: string };
  if (!response.ok || !created.secret) throw new Error(`creating a key failed: HTTP ${response.status} ${created.detail ?? ''}`);
  return created.secret;
}

async function createInDatabase(where: Parameters<typeof openDatabase>[0], label: string): Promise<string> {
  const database = await openDatabase(where);
  try {
    return (await createApiKey(database.db, label)).secret;
  } finally {
    await database.close();
  }
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
