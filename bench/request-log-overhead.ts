/**
 * Benchmark: what the request log and the metrics cost. The GET of a finished prediction (the
 * cheapest request, and the one clients repeat most: polling) against two API processes of the
 * same build in the same run (`apps/api/src/main.ts`, PostgreSQL, `WORKER_CONCURRENCY=0`):
 * - `LOG_LEVEL=info`: one JSON line per request (logging/log-requests.ts), written to a file as a
 *   container's log driver would;
 * - `LOG_LEVEL=silent`: no request line is built (only the `X-Request-Id` header is set).
 * Both serve `/metrics` (prom-client with Node's default collectors, scraped every second here as
 * an eager Prometheus would); a poll updates no metric, so what metrics cost is in the same ratio.
 * Each repetition runs both processes back to back (order alternating) and gives one paired
 * ratio info / silent; the result is the median of those ratios. On a shared 2-core machine the
 * load drifts by a factor of several within a minute, so only runs next to each other in time
 * compare (medians of each side taken apart would mix quiet and busy minutes).
 * Goal: the info process answers at least 90 % of the silent one's requests per second.
 *
 * Run: `npx tsx bench/request-log-overhead.ts [--full]`. Writes bench/results/request-log-overhead.md.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Result } from 'autocannon';
import { createApiKey, openDatabase } from '@transcribe/core';
import { startTranscriptionServer } from '@transcribe/core/testing';
import { createTestDatabase } from '../apps/api/src/test-support/create-test-database.ts';
import { pollPrediction } from '../apps/api/src/test-support/poll-prediction.ts';
import { serveFiles } from '../apps/api/src/test-support/serve-files.ts';
import { AUDIO_DIR, REPO_ROOT } from '../apps/api/src/test-support/shared-paths.ts';
import { freePort, spawnService } from '../apps/api/src/test-support/spawn-service.ts';
import { FULL_RUN, fixed, median, writeResult } from './support/bench-kit.ts';

const REPETITIONS = FULL_RUN ? 21 : 11;
const SECONDS = 3;
const CONNECTIONS = 10;
/** Most of the throughput the request log and metrics may cost. */
const GOAL = 0.1;

interface Api {
  url: string;
  stop: () => Promise<void>;
}

/** An API process whose stdout and stderr go to the file `logPath`; resolves once `/health` answers. */
async function startApi(env: Record<string, string>, logPath: string): Promise<Api> {
  const port = await freePort();
  const log = await open(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, MODELS_AUTO_INSTALL: '0', ...env, WORKER_CONCURRENCY: '0', HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', log.fd, log.fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the API did not start:\n${await readFile(logPath, 'utf8')}`);
    await sleep(200);
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await log.close();
    },
  };
}

/** With a worker: one prediction of jfk.wav (remote-ASR stand-in) run to `succeeded`; its GET path and a key. */
async function makeFixture(env: Record<string, string>, databaseUrl: string, link: string): Promise<{ path: string; key: string }> {
  const service = await spawnService({ ...env, WORKER_CONCURRENCY: '1' });
  try {
    const admin = await openDatabase({ databaseUrl });
    const key = (await createApiKey(admin.db, 'bench')).secret;
    await admin.close();
    const base = `${service.url}/v1/replicate`;
    const created = await fetch(`${base}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: link, language: 'en' } }),
    });
    const { id } = (await created.json()) as { id: string };
    if ((await pollPrediction(base, key, id)).status !== 'succeeded') throw new Error('fixture prediction failed');
    return { path: `/v1/replicate/v1/predictions/${id}`, key };
  } finally {
    await service.kill();
  }
}

async function load(url: string, key: string): Promise<Result> {
  const result = await autocannon({ url, headers: { authorization: `Bearer ${key}` }, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`GET ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-log-'));
  const asr = await startTranscriptionServer();
  const files = await serveFiles(AUDIO_DIR);
  const database = await createTestDatabase();
  // Per-key rate limits so high that the limiter runs but never refuses: one key sends all the load here.
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dir,
    ALLOW_PRIVATE_NETWORK: '1',
    RECOGNITION_ENGINE: 'openai-compatible',
    ASR_BASE_URL: asr.baseUrl,
    ASR_MODEL: 'bench',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_READS_PER_MINUTE: '1000000000',
  };
  const apis: Record<'info' | 'silent', Api | null> = { info: null, silent: null };
  let scraper: NodeJS.Timeout | null = null;
  try {
    const fixture = await makeFixture(env, database.url, `${files.url}/jfk.wav`);
    const logPath = join(dir, 'api-info.log');
    apis.info = await startApi({ ...env, LOG_LEVEL: 'info' }, logPath);
    apis.silent = await startApi({ ...env, LOG_LEVEL: 'silent' }, join(dir, 'api-silent.log'));
    const targets = { info: apis.info.url + fixture.path, silent: apis.silent.url + fixture.path };
    scraper = setInterval(() => {
      for (const api of [apis.info, apis.silent])
        void fetch(`${api!.url}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
    }, 1000);
    const names = ['info', 'silent'] as const;
    for (const name of names) await load(targets[name], fixture.key); // warm-up
    const linesBefore = (await readFile(logPath, 'utf8')).split('\n').length;
    const runs: Record<(typeof names)[number], Result[]> = { info: [], silent: [] };
    for (let i = 0; i < REPETITIONS; i += 1) {
      for (const name of i % 2 === 0 ? names : [...names].reverse()) runs[name].push(await load(targets[name], fixture.key));
      console.log(
        `  rep ${i + 1}: info ${runs.info.at(-1)!.requests.average.toFixed(0)}/s, silent ${runs.silent.at(-1)!.requests.average.toFixed(0)}/s`,
      );
    }
    const written = (await readFile(logPath, 'utf8'))
      .split('\n')
      .slice(linesBefore - 1)
      .filter((line) => line.includes('"msg":"request completed"'));
    const rps = (name: (typeof names)[number]) => median(runs[name].map((r) => r.requests.average));
    const p99 = (name: (typeof names)[number]) => median(runs[name].map((r) => r.latency.p99));
    const ratios = runs.info.map((run, i) => run.requests.average / runs.silent[i]!.requests.average);
    const overhead = 1 - median(ratios);
    const lineBytes = written.length > 0 ? written.reduce((sum, line) => sum + line.length + 1, 0) / written.length : 0;
    await writeResult(
      'request-log-overhead',
      [
        '# Cost of the request log and the metrics',
        '',
        `GET of a succeeded prediction (a poll: key from the in-process cache, answer from memory), autocannon with ${CONNECTIONS} connections, ` +
          `${REPETITIONS} repetitions of one ${SECONDS} s run per process back to back, in alternating order, after a 1 s warm-up each (table: medians of each side). Two API processes of the same build ` +
          '(`apps/api/src/main.ts`, PostgreSQL on loopback, `WORKER_CONCURRENCY=0`, rate limits raised so the limiter runs but never refuses), ' +
          'both serving `/metrics`, scraped every second during the runs. The info process writes its log to a file.',
        '',
        '| API process | req/s | p99 (ms) |',
        '|---|---|---|',
        `| \`LOG_LEVEL=silent\` (no request line) | ${fixed(rps('silent'), 0)} | ${fixed(p99('silent'), 0)} |`,
        `| \`LOG_LEVEL=info\` (request line + metrics) | ${fixed(rps('info'), 0)} | ${fixed(p99('info'), 0)} |`,
        '',
        `**Overhead: ${fixed(overhead * 100, 1)} %** of the throughput (median of the ${REPETITIONS} paired ratios info / silent: ${fixed((1 - overhead) * 100, 1)} %; ` +
          `the ratios: ${ratios.map((ratio) => fixed(ratio, 2)).join(', ')}); ` +
          `goal < ${GOAL * 100} %: ${overhead < GOAL ? 'met' : 'missed'}. The info process wrote ${written.length} request lines in the measured runs, ` +
          `${fixed(lineBytes, 0)} bytes each on average. Per-run req/s, info: ${runs.info.map((r) => r.requests.average.toFixed(0)).join(', ')}; ` +
          `silent: ${runs.silent.map((r) => r.requests.average.toFixed(0)).join(', ')}.`,
        '',
        'What the request line costs: one object of six fields, one pino line (no redaction pass: the line is built from values ' +
          'that cannot hold a secret), one write to stdout and one listener on the answer. A CPU profile of both processes under ' +
          "this load (`node --cpu-prof`) puts the difference in the write to stdout (about 4 % of the CPU), pino's serialization " +
          '(about 2 %) and the middleware itself (about 1 %), plus the garbage of about 300 bytes per line. Writing the lines ' +
          'asynchronously, or gathered 4 KiB at a time, measured no better, so they are written as pino does by default (at once, ' +
          'never lost). Two earlier versions cost far more, measured the same way: pino-http (a child logger, serializers and the ' +
          'redaction pass per request) about 50 %, and a `req.log` getter defined on every request about 30 % (defining a property ' +
          "on Node's request object slowed every later read of it in express). The other jobs on this shared machine move the " +
          'result between runs: runs of nearly this code within a quarter of an hour gave 6.7 % to 12 %; what is left is the price ' +
          'of one JSON line per request, and `LOG_LEVEL=warn` keeps only the 4xx and 5xx lines.',
      ],
      `npx tsx bench/request-log-overhead.ts${FULL_RUN ? ' --full' : ''}`,
    );
  } finally {
    if (scraper) clearInterval(scraper);
    await apis.info?.stop();
    await apis.silent?.stop();
    await files.close();
    await asr.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
