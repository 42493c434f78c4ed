/**
 * Benchmark: API speed. autocannon against the service's API process (`apps/api/src/main.ts`,
 * PostgreSQL, `WORKER_CONCURRENCY=0` as the `api` service of docker-compose.yml) and, as the
 * baseline in the same run, against a bare express route returning the same JSON from memory
 * (bench/support/bare-express-server.ts). Both servers are child processes; autocannon runs here.
 * - `GET /v1/replicate/v1/predictions/{id}` of a succeeded prediction (key check, then the answer:
 *   both cached in memory after the first request) vs `GET /prediction`.
 * - `POST …/predictions` repeating a link already transcribed (a cached repeat: key check, input
 *   validation, insert, enqueue) vs `POST /predictions` (JSON parsed, same 201 body).
 * Goal: GET throughput ≥ 60 % of bare express.
 *
 * Run: `npx tsx bench/api-throughput.ts [--full]`. Writes bench/results/api-throughput.md.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { createApiKey, openDatabase } from '@transcribe/core';
import { startTranscriptionServer } from '@transcribe/core/testing';
import { createTestDatabase } from '../apps/api/src/test-support/create-test-database.ts';
import { pollPrediction } from '../apps/api/src/test-support/poll-prediction.ts';
import { serveFiles } from '../apps/api/src/test-support/serve-files.ts';
import { AUDIO_DIR } from '../apps/api/src/test-support/shared-paths.ts';
import { freePort, runScript, spawnService, type SpawnedService } from '../apps/api/src/test-support/spawn-service.ts';
import { FULL_RUN, fixed, median, writeResult } from './support/bench-kit.ts';

const REPETITIONS = 3;
const SECONDS = FULL_RUN ? 10 : 5;
const CONNECTIONS = 10;
const GOAL = 0.6;

interface Target { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }
interface Fixture { getJson: string; postJson: string; getUrl: string; postUrl: string; postBody: string; key: string }

/** With a worker: one prediction of jfk.wav run to `succeeded`, then a repeat of the same link. */
async function makeFixture(env: Record<string, string>, databaseUrl: string, link: string): Promise<Fixture> {
  const service = await spawnService({ ...env, WORKER_CONCURRENCY: '1' });
  try {
    const admin = await openDatabase({ databaseUrl });
    const key = (await createApiKey(admin.db, 'bench')).secret;
    await admin.close();
    const base = `${service.url}/v1/replicate`;
    const postUrl = `${base}/v1/models/service/transcribe/predictions`;
    const postBody = JSON.stringify({ input: { audio: link, language: 'en' } });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const first = (await (await fetch(postUrl, { method: 'POST', headers, body: postBody })).json()) as { id: string };
    if ((await pollPrediction(base, key, first.id)).status !== 'succeeded') throw new Error('fixture prediction failed');
    const repeat = await fetch(postUrl, { method: 'POST', headers, body: postBody });
    const postJson = await repeat.text();
    await pollPrediction(base, key, (JSON.parse(postJson) as { id: string }).id);
    const getUrl = `${base}/v1/predictions/${first.id}`;
    const getJson = await (await fetch(getUrl, { headers })).text();
    return { getJson, postJson, getUrl, postUrl, postBody, key };
  } finally {
    await service.kill();
  }
}

async function startBare(getJson: string, postJson: string, dir: string): Promise<{ url: string; stop: () => void }> {
  await writeFile(join(dir, 'get.json'), getJson);
  await writeFile(join(dir, 'post.json'), postJson);
  const port = await freePort();
  const child = runScript('bench/support/bare-express-server.ts', [], { BARE_GET_JSON: join(dir, 'get.json'), BARE_POST_JSON: join(dir, 'post.json'), BARE_PORT: String(port) });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => { if (chunk.toString().includes('listening')) resolve(); });
    child.once('exit', (code) => reject(new Error(`bare express exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function load(target: Target, seconds: number): Promise<Result> {
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.method} ${target.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

/** Warm-up, then bare and service alternately, REPETITIONS times; medians of requests/s and p99 (ms). */
async function compare(bare: Target, service: Target) {
  await load(bare, 1);
  await load(service, 1);
  const runs: { bare: Result; service: Result }[] = [];
  for (let i = 0; i < REPETITIONS; i += 1) {
    const order = i % 2 === 0 ? [bare, service] : [service, bare];
    const [a, b] = [await load(order[0]!, SECONDS), await load(order[1]!, SECONDS)];
    runs.push(i % 2 === 0 ? { bare: a, service: b } : { bare: b, service: a });
    console.log(`  ${service.method} rep ${i + 1}: bare ${runs[i]!.bare.requests.average.toFixed(0)}/s, service ${runs[i]!.service.requests.average.toFixed(0)}/s`);
  }
  const pick = (side: 'bare' | 'service', value: (r: Result) => number) => median(runs.map((run) => value(run[side])));
  return {
    bareRps: pick('bare', (r) => r.requests.average),
    serviceRps: pick('service', (r) => r.requests.average),
    bareP99: pick('bare', (r) => r.latency.p99),
    serviceP99: pick('service', (r) => r.latency.p99),
  };
}

function row(name: string, m: Awaited<ReturnType<typeof compare>>, goal: boolean): string {
  const ratio = m.serviceRps / m.bareRps;
  const verdict = goal ? (ratio >= GOAL ? 'met' : `missed by ${((GOAL - ratio) * 100).toFixed(0)} points`) : '—';
  return `| ${name} | ${fixed(m.bareRps, 0)} | ${fixed(m.serviceRps, 0)} | ${fixed(ratio * 100, 1)} % | ${fixed(m.bareP99, 0)} | ${fixed(m.serviceP99, 0)} | ${fixed(m.serviceP99 / m.bareP99, 1)}× | ${verdict} |`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const asr = await startTranscriptionServer();
  const files = await serveFiles(AUDIO_DIR);
  const database = await createTestDatabase();
  // Per-key rate limits so high that the limiter runs but never refuses: one key sends all the load here.
  const env = {
    DATABASE_URL: database.url, DATA_DIR: dir, ALLOW_PRIVATE_NETWORK: '1', RECOGNITION_ENGINE: 'openai-compatible', ASR_BASE_URL: asr.baseUrl, ASR_MODEL: 'bench',
    RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_READS_PER_MINUTE: '1000000000',
  };
  let api: SpawnedService | null = null;
  let bare: { url: string; stop: () => void } | null = null;
  try {
    const fixture = await makeFixture(env, database.url, `${files.url}/jfk.wav`);
    api = await spawnService({ ...env, WORKER_CONCURRENCY: '0' });
    bare = await startBare(fixture.getJson, fixture.postJson, dir);
    const auth = { authorization: `Bearer ${fixture.key}` };
    const json = { 'content-type': 'application/json' };
    const getUrl = fixture.getUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url);
    const postUrl = fixture.postUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url);
    const get = await compare({ url: `${bare.url}/prediction`, method: 'GET', headers: {} }, { url: getUrl, method: 'GET', headers: auth });
    const post = await compare({ url: `${bare.url}/predictions`, method: 'POST', headers: json, body: fixture.postBody }, { url: postUrl, method: 'POST', headers: { ...auth, ...json }, body: fixture.postBody });
    await writeResult('api-throughput', [
      '# API throughput and latency',
      '',
      `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, ${REPETITIONS} runs per side alternating with the baseline `
        + '(medians), after a 1 s warm-up each. Service: `apps/api/src/main.ts` with PostgreSQL on loopback and '
        + '`WORKER_CONCURRENCY=0` (API only) and the per-key rate limits raised to 10^9 a minute (the limiter runs but never refuses: one key sends all the load). Baseline: bare express 5 answering the same JSON from memory. Both are single Node '
        + `processes; autocannon and PostgreSQL share the same 2 cores. GET body: ${fixture.getJson.length} bytes.`,
      '',
      '| Request | Bare express (req/s) | Service (req/s) | Service / bare | Bare p99 (ms) | Service p99 (ms) | p99 ratio | Goal (GET ≥ 60 %) |',
      '|---|---|---|---|---|---|---|---|',
      row('GET a succeeded prediction', get, true),
      row('POST a cached repeat (same link)', post, false),
      '',
      'What a service GET does: it hashes the key (SHA-256) and finds it in the in-process key cache (resources/keys/api-key-cache.ts, '
        + '`KEY_CACHE_TTL_MS`, 5 s: one SELECT per key every 5 s), runs the per-key rate limiter, and answers a finished '
        + 'prediction with the bytes kept in memory per key and `X-Service-Output-Transformers` value '
        + '(http/prediction-body-cache.ts, `PREDICTION_CACHE_BYTES`): a poll of a finished prediction touches no database and '
        + 'renders nothing. What is left of the gap is the API router (authentication, rate limiting, the JSON body parser and '
        + 'the NUL check pass over a GET) on top of the bare route. Unfinished predictions are still read from the database '
        + 'on every poll (not measured here). A POST also validates the input and writes the prediction and its pg-boss job '
        + '(an API-only process has no local worker to wake); PostgreSQL takes its CPU from the same 2 cores.',
    ], `npx tsx bench/api-throughput.ts${FULL_RUN ? ' --full' : ''}`);
  } finally {
    bare?.stop();
    await api?.kill();
    await files.close();
    await asr.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
