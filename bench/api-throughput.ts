/**
 * Benchmark: API speed. autocannon against the service (`apps/api/src/main.ts` child processes)
 * and, as the baselines in the same run, against bare express routes answering the same JSON from
 * memory (bench/support/bare-express-server.ts); autocannon runs here.
 * - `GET /v1/replicate/v1/predictions/{id}` of a succeeded prediction on the PostgreSQL API-only
 *   process (`WORKER_CONCURRENCY=0`, the `api` service of docker-compose.yml) vs `GET /prediction`.
 * - `GET` of a *processing* prediction (answered from memory; on PostgreSQL for 250 ms after each read) on the
 *   default PGlite service and on PostgreSQL with API and worker in separate processes, vs
 *   `GET /processing`.
 * - `POST …/predictions` repeating a link already transcribed (a cached repeat: key check, input
 *   validation, rate-limit count, one transaction inserting the row and its job, shared with the creates
 *   of the same moment) vs `POST /predictions` (JSON parsed, same 201 body; shown, no goal) and vs
 *   `POST /predictions-floor` (bare express running the same transaction: the row, and the job through
 *   pg-boss's `insert` with the transaction as its executor).
 * Goals: GETs ≥ 60 % of bare express; POST ≥ 1,000 creates a second per API process on PostgreSQL
 * and ≥ 60 % of the bare route running the same transaction.
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
/**
 * Load before the measured runs, per target. A service process reaches its steady rate of creates
 * after about 3 s (V8 compiling the hot path, and each of the pool's 10 connections preparing the
 * insert of each batch size once): after 1 s its first measured POST run was 10–15 % below the next.
 */
const WARM_UP_SECONDS = 3;
const GOAL = 0.6;
/** Creates a second one API process on PostgreSQL should answer at least. */
const POST_GOAL_PER_SECOND = 1000;

interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}
interface Fixture {
  getJson: string;
  postJson: string;
  getUrl: string;
  postUrl: string;
  postBody: string;
  key: string;
}

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
    {
      const done = await pollPrediction(base, key, first.id);
      if (done.status !== 'succeeded')
        throw new Error(`fixture prediction failed: ${JSON.stringify(done)}\n${service.output().slice(-6000)}`);
    }
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

interface Bare {
  url: string;
  stop: () => void;
}

async function startBare(
  files: { getJson: string; postJson: string; processingJson: string },
  dir: string,
  floor: { databaseUrl: string; apiKeyId: string },
): Promise<Bare> {
  await writeFile(join(dir, 'get.json'), files.getJson);
  await writeFile(join(dir, 'post.json'), files.postJson);
  await writeFile(join(dir, 'processing.json'), files.processingJson);
  const port = await freePort();
  const child = runScript('bench/support/bare-express-server.ts', [], {
    BARE_GET_JSON: join(dir, 'get.json'),
    BARE_POST_JSON: join(dir, 'post.json'),
    BARE_PROCESSING_JSON: join(dir, 'processing.json'),
    BARE_PORT: String(port),
    BARE_DATABASE_URL: floor.databaseUrl,
    BARE_API_KEY_ID: floor.apiKeyId,
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bare express exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * Creates a prediction of `link` on the service at `url` (whose worker recognises with the fake
 * engine held for an hour) and waits until it is started and its recording probed, so it stays
 * `processing` with the same answer while it is measured. Returns its GET URL and body.
 */
async function makeProcessing(url: string, key: string, link: string): Promise<{ getUrl: string; json: string }> {
  const base = `${url}/v1/replicate/v1`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = (await (
    await fetch(`${base}/models/service/transcribe/predictions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: { audio: link, language: 'en' } }),
    })
  ).json()) as { id: string };
  const getUrl = `${base}/predictions/${created.id}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = (await (await fetch(getUrl, { headers })).json()) as {
      status: string;
      started_at: string | null;
      metrics: { audio_duration?: number };
    };
    if (body.status !== 'processing') throw new Error(`the processing fixture ended: ${body.status}`);
    if (body.started_at && body.metrics.audio_duration !== undefined) break;
    if (Date.now() > deadline) throw new Error('the processing fixture did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // its last line before recognition is written
  return { getUrl, json: await (await fetch(getUrl, { headers })).text() };
}

async function load(target: Target, seconds: number): Promise<Result> {
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.method} ${target.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

interface Measured {
  rps: number;
  p99: number;
}

/**
 * Warm-up, then every target in turn (the order rotating each repetition), REPETITIONS times;
 * medians of requests/s and p99 (ms) per target, in the order given. `label` names the log lines.
 */
async function compare(label: string, targets: Target[]): Promise<Measured[]> {
  for (const target of targets) await load(target, WARM_UP_SECONDS);
  const runs: Result[][] = targets.map(() => []);
  for (let i = 0; i < REPETITIONS; i += 1) {
    for (let j = 0; j < targets.length; j += 1) {
      const k = (i + j) % targets.length;
      runs[k]!.push(await load(targets[k]!, SECONDS));
    }
    console.log(`  ${label} rep ${i + 1}: ${runs.map((r) => `${r.at(-1)!.requests.average.toFixed(0)}/s`).join(', ')}`);
  }
  return runs.map((r) => ({ rps: median(r.map((x) => x.requests.average)), p99: median(r.map((x) => x.latency.p99)) }));
}

function row(name: string, baseline: string, base: Measured, service: Measured, goal: number | null): string {
  const ratio = service.rps / base.rps;
  const verdict =
    goal === null
      ? '—'
      : ratio >= goal
        ? `met (≥ ${goal * 100} %)`
        : `missed (goal ${goal * 100} %, ${((goal - ratio) * 100).toFixed(0)} points short)`;
  return `| ${name} | ${baseline} | ${fixed(base.rps, 0)} | ${fixed(service.rps, 0)} | ${fixed(ratio * 100, 1)} % | ${fixed(base.p99, 0)} | ${fixed(service.p99, 0)} | ${verdict} |`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const asr = await startTranscriptionServer();
  const files = await serveFiles(AUDIO_DIR);
  const database = await createTestDatabase();
  // Per-key rate limits so high that the limiter runs but never refuses: one key sends all the load here.
  const limits = { RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_READS_PER_MINUTE: '1000000000' };
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dir,
    ALLOW_PRIVATE_NETWORK: '1',
    RECOGNITION_ENGINE: 'openai-compatible',
    ASR_BASE_URL: asr.baseUrl,
    ASR_MODEL: 'bench',
    ...limits,
  };
  // A worker whose recognition never ends within the run: its prediction stays `processing`.
  const held = { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1', FAKE_ENGINE_DELAY_MS: '3600000', WORKER_CONCURRENCY: '1' };
  const spawned: SpawnedService[] = [];
  let bare: Bare | null = null;
  try {
    const fixture = await makeFixture(env, database.url, `${files.url}/jfk.wav`);
    // PostgreSQL: the API alone in one process, a worker in another (the docker-compose.yml topology).
    const api = await spawnService({ ...env, WORKER_CONCURRENCY: '0' });
    spawned.push(api);
    spawned.push(await spawnService({ ...env, ...held, DATA_DIR: join(dir, 'worker') }));
    const pgProcessing = await makeProcessing(api.url, fixture.key, `${files.url}/jfk.wav?held-postgres`);
    // The default `npm start`: PGlite, API and worker in one process.
    const pgliteDir = join(dir, 'pglite-service');
    const embedded = await openDatabase({ pgliteDir: join(pgliteDir, 'pglite') });
    const pgliteKey = (await createApiKey(embedded.db, 'bench')).secret;
    await embedded.close();
    const pglite = await spawnService({ DATA_DIR: pgliteDir, ALLOW_PRIVATE_NETWORK: '1', ...limits, ...held });
    spawned.push(pglite);
    const pgliteProcessing = await makeProcessing(pglite.url, pgliteKey, `${files.url}/jfk.wav?held-pglite`);
    const admin = await openDatabase({ databaseUrl: database.url });
    const apiKeyId = (await admin.executeSql('SELECT id FROM api_keys LIMIT 1')).rows[0] as { id: string };
    await admin.close();
    bare = await startBare({ getJson: fixture.getJson, postJson: fixture.postJson, processingJson: pgProcessing.json }, dir, {
      databaseUrl: database.url,
      apiKeyId: apiKeyId.id,
    });
    const auth = { authorization: `Bearer ${fixture.key}` };
    const json = { 'content-type': 'application/json' };
    const getUrl = fixture.getUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url);
    const postUrl = fixture.postUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url);
    const [bareGet, serviceGet] = await compare('GET succeeded', [
      { url: `${bare.url}/prediction`, method: 'GET', headers: {} },
      { url: getUrl, method: 'GET', headers: auth },
    ]);
    const [bareProcessing, pgliteGet, pgGet] = await compare('GET processing (bare, PGlite, PostgreSQL)', [
      { url: `${bare.url}/processing`, method: 'GET', headers: {} },
      { url: pgliteProcessing.getUrl, method: 'GET', headers: { authorization: `Bearer ${pgliteKey}` } },
      { url: pgProcessing.getUrl, method: 'GET', headers: auth },
    ]);
    const [barePost, floorPost, servicePost] = await compare('POST (bare, floor, service)', [
      { url: `${bare.url}/predictions`, method: 'POST', headers: json, body: fixture.postBody },
      { url: `${bare.url}/predictions-floor`, method: 'POST', headers: json, body: fixture.postBody },
      { url: postUrl, method: 'POST', headers: { ...auth, ...json }, body: fixture.postBody },
    ]);
    await writeResult(
      'api-throughput',
      [
        '# API throughput and latency',
        '',
        `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, ${REPETITIONS} runs per target with the order rotating ` +
          `(medians), after a ${WARM_UP_SECONDS} s warm-up each (a service reaches its steady rate of creates after about 3 s: V8 compiling the hot path, each pool connection preparing its statements). Services are \`apps/api/src/main.ts\` child processes with the per-key rate limits raised to 10^9 a minute (the limiter runs but never refuses: one key sends all the load; see below for what that means for the write count):`,
        '- PostgreSQL on loopback: an API-only process (`WORKER_CONCURRENCY=0`, the `api` service of docker-compose.yml) measured, and a worker in a process of its own holding one prediction `processing` (its recognition, the fake engine, lasts an hour);',
        '- PGlite, the default `npm start`: API and worker in one process, the worker holding one prediction `processing` the same way.',
        '',
        `Baselines: bare express 5 answering the same JSON from memory (bench/support/bare-express-server.ts), and for creates also a bare express route running the same transaction as a service create: it parses the JSON, then in one PostgreSQL transaction (postgres.js) inserts the prediction row and its pg-boss job through pg-boss's public \`insert(jobs, { db })\` with the transaction as executor, one transaction per create (BEGIN, two INSERTs, COMMIT). All are single Node processes; autocannon and PostgreSQL share the same 2 cores. GET bodies: succeeded ${fixture.getJson.length} bytes, processing ${pgProcessing.json.length} bytes.`,
        '',
        '| Request | Baseline | Baseline (req/s) | Service (req/s) | Service / baseline | Baseline p99 (ms) | Service p99 (ms) | Goal |',
        '|---|---|---|---|---|---|---|---|',
        row('GET a succeeded prediction (PostgreSQL)', 'bare express', bareGet!, serviceGet!, GOAL),
        row('GET a processing prediction, PGlite default', 'bare express', bareProcessing!, pgliteGet!, GOAL),
        row('GET a processing prediction, PostgreSQL, API and worker in separate processes', 'bare express', bareProcessing!, pgGet!, GOAL),
        row('POST a cached repeat (same link), PostgreSQL', 'bare express (no database)', barePost!, servicePost!, null),
        row('POST a cached repeat (same link), PostgreSQL', 'bare express running the same transaction', floorPost!, servicePost!, GOAL),
        '',
        `POST creates a second, one API process on PostgreSQL: ${fixed(servicePost!.rps, 0)} (goal ≥ ${POST_GOAL_PER_SECOND.toLocaleString('en')}: ` +
          `${servicePost!.rps >= POST_GOAL_PER_SECOND ? 'met' : `missed by ${fixed(POST_GOAL_PER_SECOND - servicePost!.rps, 0)}`}).`,
        '',
        'What a service GET does: it hashes the key (SHA-256) and finds it in the in-process key cache (resources/keys/api-key-cache.ts, ' +
          '`KEY_CACHE_TTL_MS`), runs the per-key rate limiter (in memory for reads), and answers from the bytes kept in memory per key, ' +
          'prediction and `X-Service-Output-Transformers` value (http/prediction-body-cache.ts, `PREDICTION_CACHE_BYTES`), with their ETag. ' +
          'A finished prediction never changes; an unfinished one is answered from memory until a write to it drops it (the in-process event, ' +
          'or a `pg_notify` from another process that nobody waits for; docs/architecture.md, "Where a poll\'s answer comes from"), ' +
          'and on PostgreSQL for at most 250 ms after the database read it came from began, so there the processing prediction is read from the database ' +
          'up to 40 times a second (once per connection each 250 ms). ' +
          "A POST validates the input, counts the write in the PostgreSQL rate-limit table (rate-limiter-flexible's own consume: one upsert per write, prepared; " +
          'the table is UNLOGGED, so a count commits without waiting for a WAL flush, docs/reliability.md; one key sends all the load here, so the counts queue on its row), ' +
          "then inserts the prediction and its pg-boss job in one transaction (drizzle's transaction; the row's INSERT prepared, the job through pg-boss's public insert(jobs, { db }) with an executor bound to the transaction, platform/jobs/bind-job-executor.ts): " +
          'BEGIN, INSERT, the job insert (unprepared: a Parse/Describe round trip, then Bind/Execute), COMMIT. ' +
          'Creates of one event-loop turn, or that arrive while a transaction is on its way, share the next one and its commit (group commit: resources/predictions/create-prediction-inserter.ts, platform/db/group-commit.ts); ' +
          'the baseline route makes one transaction per create, ten at a time over its ten connections. An API-only process has no local worker to wake. ' +
          'Probes of 2026-11-27 on this machine while other work kept its load average at 9–16 (3 × 5 s per target, targets alternating in one run): ' +
          'group commit pays for itself: the service with it 224 creates a second, the same service writing each create in a transaction of its own 106 (the baseline 582 in that run); ' +
          'without HTTP, 10 callers inserting through the inserter: 940–4230 a second with group commit against 530–910 without, and 113–244 µs of CPU per create against 460–570. ' +
          'Against the code before this design (one statement: the job insert captured from pg-boss and spliced into the INSERT as a data-modifying WITH, and a write limit that counted a burst in one upsert and took 1 % of the limit in advance, so that at the 10^9 a minute of this bench about one create in 100 waited for a count) in the same run: ' +
          'old 464 and 664, this code 224 and 391, the baseline 582 and 744 creates a second (two runs). ' +
          "Tried and not kept (one run each, within this load's noise): the write limit's counts of a burst in one upsert without the spare points (364 against 391), three group-commit transactions in flight instead of one (440 against 391; in a second run 114 against 137). " +
          'What the fair queue costs a create (quiet machine, load 2–3, 2026-11-27 21:54–22:05, one run each): before the fair queue (the transaction create alone) ' +
          'POST 1372 a second, 87.9 % of the same-transaction baseline (1561): both POST goals met; with the fair queue 770 (58.2 % of 1323); ' +
          'with the fair queue but no `queue` member in the answers 873 (69.7 % of 1253; p99 29 ms against 59); with it and without the write limit 833 (61.1 % of 1364). ' +
          "So the fair queue's upsert of fair_share_keys in the create's transaction (unprepared, through the job executor) takes about a third of the throughput, " +
          'and the queue view, which reads every unfinished prediction once a second per process (this bench leaves tens of thousands waiting), about an eighth and doubles p99. ' +
          "Then the queue view was made independent of the queue's depth (a waiting prediction's place by binary search in the fair order instead of a pass over the queue; a snapshot of N unfinished predictions kept max(1 s, N ms)): " +
          'POST 1053 and 983 a second in two runs (22:31, 22:36), 73.3 % and 71.9 % of the same-transaction baseline (1437, 1367), p99 21 and 34 ms: the 60 % goal met in both, the 1,000 a second in the first (the second 1.7 % short).',
      ],
      `npx tsx bench/api-throughput.ts${FULL_RUN ? ' --full' : ''}`,
    );
  } finally {
    bare?.stop();
    for (const service of spawned.reverse()) await service.kill('SIGKILL');
    await files.close();
    await asr.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
