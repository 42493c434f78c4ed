/**
 * Load test: N predictions (default 1,000) from C concurrent clients (default 50), each
 * client with its own API key, against the real service on loopback: `apps/api/src/main.ts` on a
 * fresh PostgreSQL database, plus W `npm run worker` processes (default 1), all with the fast engine
 * double (RECOGNITION_ENGINE=fake, ALLOW_FAKE_ENGINE=1: download, ffprobe, ffmpeg and VAD are real,
 * recognition answers at once). Each link is distinct (`?n=i`), so nothing comes from the cache.
 * Every client creates its predictions one after another, then polls them every second until they
 * end, honouring 429 + Retry-After. Checks: every prediction succeeded, none ran twice (the engine's
 * `[fake-engine] recognize <id>` lines, `succeeded` log lines, pg-boss retry counts), one ledger row
 * each. Reports create throughput and p50/p99 latency, end-to-end throughput, GET p50/p99 while busy.
 *
 * Run: `npx tsx bench/load-1000-predictions.ts [--predictions 1000] [--clients 50] [--workers 1]`.
 * Needs PostgreSQL on 127.0.0.1:5432 (TEST_POSTGRES_URL). Writes bench/results/load-1000-predictions.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createApiKey, openDatabase } from '@transcribe/core';
import { createTestDatabase } from '../apps/api/src/test-support/create-test-database.ts';
import { serveFiles } from '../apps/api/src/test-support/serve-files.ts';
import { AUDIO_DIR } from '../apps/api/src/test-support/shared-paths.ts';
import { runScript, spawnService } from '../apps/api/src/test-support/spawn-service.ts';

const { values: args } = parseArgs({
  options: {
    predictions: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '50' },
    workers: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '3' },
  },
});
const PREDICTIONS = Number(args.predictions);
const CLIENTS = Number(args.clients);
const WORKERS = Number(args.workers);
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

interface Timing {
  creates: number[];
  gets: number[];
  limited: number;
  errors: string[];
  lastCreateAt: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** One request with timing; a 429 waits Retry-After and tries again (counted). */
async function timed(url: string, init: RequestInit, into: number[], timing: Timing): Promise<Record<string, unknown>> {
  for (;;) {
    const started = performance.now();
    const response = await fetch(url, init);
    const body = (await response.json()) as Record<string, unknown>;
    into.push(performance.now() - started);
    if (response.status !== 429) {
      if (response.status >= 400) timing.errors.push(`${init.method ?? 'GET'} ${response.status} ${JSON.stringify(body)}`);
      return body;
    }
    timing.limited += 1;
    await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000);
  }
}

/** A client: creates its share one by one, then polls the unfinished ones every second. */
async function runClient(base: string, key: string, links: string[], timing: Timing): Promise<Map<string, Record<string, unknown>>> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const ids: string[] = [];
  for (const link of links) {
    const body = await timed(
      `${base}/models/service/transcribe/predictions`,
      { method: 'POST', headers, body: JSON.stringify({ input: { audio: link } }) },
      timing.creates,
      timing,
    );
    if (typeof body.id === 'string') ids.push(body.id);
  }
  timing.lastCreateAt = Math.max(timing.lastCreateAt, performance.now());
  const done = new Map<string, Record<string, unknown>>();
  const deadline = Date.now() + 30 * 60_000;
  while (done.size < ids.length && Date.now() < deadline) {
    for (const id of ids.filter((id) => !done.has(id))) {
      const body = await timed(`${base}/predictions/${id}`, { headers }, timing.gets, timing);
      if (TERMINAL.has(String(body.status)) && /\d\S* (succeeded|failed)/.test(String(body.logs))) done.set(id, body);
    }
    await sleep(1000);
  }
  return done;
}

function startWorker(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = runScript('apps/api/src/worker-main.ts', [], env);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'load-'));
  const database = await createTestDatabase();
  const files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ALLOW_PRIVATE_NETWORK: '1',
    RECOGNITION_ENGINE: 'fake',
    ALLOW_FAKE_ENGINE: '1',
    WORKER_CONCURRENCY: args.concurrency!,
    RECOGNITION_CONCURRENCY: '2',
  };
  const api = await spawnService(env);
  const workers = Array.from({ length: WORKERS }, () => startWorker(env));
  try {
    const admin = await openDatabase({ databaseUrl: database.url });
    const keys = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => createApiKey(admin.db, `load-${i}`).then((key) => key.secret)),
    );
    await admin.close();
    const links = Array.from({ length: PREDICTIONS }, (_, n) => `${files.url}/1089-134686-0001.wav?n=${n}`);
    const timing: Timing = { creates: [], gets: [], limited: 0, errors: [], lastCreateAt: 0 };
    const loadAtStart = loadavg()[0];
    const started = performance.now();
    const results = await Promise.all(
      keys.map((key, c) =>
        runClient(
          `${api.url}/v1/replicate/v1`,
          key,
          links.filter((_, n) => n % CLIENTS === c),
          timing,
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const createSeconds = (timing.lastCreateAt - started) / 1000;
    const all = new Map(results.flatMap((map) => [...map]));
    const output = api.output() + workers.map((worker) => worker.output()).join('');
    const report = await verify(database.url, all, output);
    const creates = [...timing.creates].sort((a, b) => a - b);
    const gets = [...timing.gets].sort((a, b) => a - b);
    const summary = {
      date: new Date().toISOString(),
      cpus: cpus().length,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg()[0],
      predictions: PREDICTIONS,
      clients: CLIENTS,
      workerProcesses: 1 + WORKERS,
      workerConcurrencyEach: Number(args.concurrency),
      engine: 'fake (download, ffprobe, ffmpeg, VAD real)',
      ...report,
      seconds: Math.round(seconds * 10) / 10,
      predictionsPerSecond: Math.round((all.size / seconds) * 100) / 100,
      createPhaseSeconds: createSeconds,
      createsPerSecond: timing.creates.length / createSeconds,
      createMs: { p50: percentile(creates, 0.5), p99: percentile(creates, 0.99), max: creates.at(-1) },
      getMs: { count: gets.length, p50: percentile(gets, 0.5), p99: percentile(gets, 0.99), max: gets.at(-1) },
      rateLimited: timing.limited,
      httpErrors: timing.errors.slice(0, 5),
    };
    const rounded = JSON.parse(
      JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)),
    ) as typeof summary;
    console.log(JSON.stringify(rounded, null, 2));
    await mkdir('bench/results', { recursive: true });
    await writeFile('bench/results/load-1000-predictions.json', `${JSON.stringify(rounded, null, 2)}\n`);
    if (!report.ok) process.exitCode = 1;
  } catch (error) {
    console.error(`service output (tail):\n${api.output().slice(-3000)}`);
    throw error;
  } finally {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await api.kill('SIGKILL');
    await files.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Every prediction terminal once: statuses, engine runs per id, log lines, job retries, ledger rows. */
async function verify(databaseUrl: string, all: Map<string, Record<string, unknown>>, output: string) {
  const runs = new Map<string, number>();
  for (const match of output.matchAll(/^\[fake-engine\] recognize (\S+)$/gm)) runs.set(match[1]!, (runs.get(match[1]!) ?? 0) + 1);
  const statuses: Record<string, number> = {};
  for (const body of all.values()) statuses[String(body.status)] = (statuses[String(body.status)] ?? 0) + 1;
  const ranTwice = [...all.keys()].filter(
    (id) => (runs.get(id) ?? 0) > 1 || (String(all.get(id)!.logs).match(/ succeeded$/gm)?.length ?? 0) > 1,
  );
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [jobs] = await sql<{ total: number; retried: number; completed: number }[]>`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE retry_count > 0)::int AS retried,
             count(*) FILTER (WHERE state = 'completed')::int AS completed FROM pgboss.job WHERE name = 'transcribe'`;
    const [ledger] = await sql<
      { rows: number; predictions: number }[]
    >`SELECT count(*)::int AS rows, count(DISTINCT prediction_id)::int AS predictions FROM usage_ledger`;
    const ok =
      all.size === PREDICTIONS &&
      statuses.succeeded === PREDICTIONS &&
      ranTwice.length === 0 &&
      jobs!.retried === 0 &&
      ledger!.rows === PREDICTIONS &&
      ledger!.predictions === PREDICTIONS;
    return {
      ok,
      terminal: all.size,
      statuses,
      ranTwice: ranTwice.length,
      engineRuns: [...runs.values()].reduce((a, b) => a + b, 0),
      jobs,
      ledger,
    };
  } finally {
    await sql.end();
  }
}

await main();
