/**
 * Benchmark: accuracy of the fair queue's time estimates (the `queue` member, docs/api.md "Queue").
 * The real service (PGlite, PocketSphinx, the default WORKER_CONCURRENCY=2 and
 * RECOGNITION_CONCURRENCY=1) first runs a few warm-up predictions (a deployment has a history: the
 * estimates learn from the engine's measured times), then 5 keys send 100 predictions of mixed
 * lengths (5–60 s of real speech) at pseudo-random moments over about a minute. For each, the
 * `estimated_completed_at` of the create's answer is compared with the real `completed_at`:
 * absolute error as a share of the real wait (created → completed). Goal: median ≤ 25 %.
 *
 * Run: `npx tsx bench/queue-eta.ts [--full]` (`--full`: the same with 200 predictions). Writes
 * bench/results/queue-eta.md.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiKey } from '@transcribe/core';
import { serveFiles } from '../apps/api/src/test-support/serve-files.ts';
import { startTestService } from '../apps/api/src/test-support/start-test-service.ts';
import { FULL_RUN, fixed, median, writeResult } from './support/bench-kit.ts';
import { BENCH_TMP, buildRecording, recordingName } from './support/long-recordings.ts';

const LENGTHS = [5, 10, 20, 30, 60];
const KEYS = 5;
const PREDICTIONS = FULL_RUN ? 200 : 100;
const WARM_UP = 6;
const ARRIVAL_SPAN_MS = 60_000;

interface Created {
  id: string;
  key: string;
  seconds: number;
  createdAt: number;
  estimatedStart: number;
  estimatedEnd: number;
  position: number;
}

/** A small deterministic generator (mulberry32), so every run sends the same sequence. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(share * values.length))]!;

async function main(): Promise<void> {
  for (const seconds of LENGTHS) await buildRecording({ seconds });
  const files = await serveFiles(BENCH_TMP);
  const t = await startTestService('pglite', { RECOGNITION_ENGINE: 'pocketsphinx', WORKER_CONCURRENCY: '2' });
  const keys = [t.key];
  for (let k = 1; k < KEYS; k += 1) keys.push((await createApiKey(t.service.ctx.database.db, `bench-${k}`)).secret);
  let serial = 0;
  const create = async (key: string, seconds: number): Promise<Created> => {
    serial += 1;
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/${recordingName({ seconds })}?n=${serial}`, language: 'en' } }),
    });
    const body = (await response.json()) as { id: string; created_at: string; queue?: Record<string, string | number> };
    if (response.status !== 201 || !body.queue) throw new Error(`create answered ${response.status}: ${JSON.stringify(body)}`);
    return {
      id: body.id,
      key,
      seconds,
      createdAt: Date.parse(body.created_at),
      estimatedStart: Date.parse(String(body.queue.estimated_start_at)),
      estimatedEnd: Date.parse(String(body.queue.estimated_completed_at)),
      position: Number(body.queue.position),
    };
  };
  const finish = async (created: Created) => {
    for (;;) {
      const response = await fetch(`${t.replicateBase}/v1/predictions/${created.id}`, {
        headers: { authorization: `Bearer ${created.key}` },
      });
      const body = (await response.json()) as { status: string; started_at: string | null; completed_at: string | null };
      if (body.completed_at) {
        if (body.status !== 'succeeded') throw new Error(`prediction ${created.id} ended ${body.status}`);
        return { started: Date.parse(body.started_at!), completed: Date.parse(body.completed_at) };
      }
      await sleep(500);
    }
  };

  console.log(`warm-up: ${WARM_UP} predictions`);
  const warm = [];
  for (let n = 0; n < WARM_UP; n += 1) warm.push(await create(keys[n % KEYS]!, LENGTHS[n % LENGTHS.length]!));
  for (const created of warm) await finish(created);

  const next = random(20261127);
  const plan = Array.from({ length: PREDICTIONS }, () => ({
    at: Math.round(next() * ARRIVAL_SPAN_MS),
    key: keys[Math.floor(next() * KEYS)]!,
    seconds: LENGTHS[Math.floor(next() * LENGTHS.length)]!,
  })).sort((a, b) => a.at - b.at);
  const began = performance.now();
  const measured: Created[] = [];
  console.log(`measured: ${PREDICTIONS} predictions from ${KEYS} keys over ${ARRIVAL_SPAN_MS / 1000} s`);
  for (const item of plan) {
    const wait = item.at - (performance.now() - began);
    if (wait > 0) await sleep(wait);
    measured.push(await create(item.key, item.seconds));
  }
  const outcomes = await Promise.all(measured.map(async (created) => ({ created, ...(await finish(created)) })));
  const endErrors = outcomes.map(
    ({ created, completed }) => Math.abs(created.estimatedEnd - completed) / Math.max(1, completed - created.createdAt),
  );
  const startErrors = outcomes.map(({ created, started }) => Math.abs(created.estimatedStart - started) / 1000);
  const waits = outcomes.map(({ created, completed }) => (completed - created.createdAt) / 1000);
  const signed = outcomes.map(({ created, completed }) => (created.estimatedEnd - completed) / Math.max(1, completed - created.createdAt));
  const lines = [
    '# Queue time estimates (ETA accuracy)',
    '',
    `${PREDICTIONS} predictions of ${LENGTHS.join(', ')} s of real speech from ${KEYS} keys, sent at pseudo-random moments over ${ARRIVAL_SPAN_MS / 1000} s, after ${WARM_UP} warm-up predictions, on PocketSphinx (PGlite, WORKER_CONCURRENCY=2, RECOGNITION_CONCURRENCY=1). Each prediction's \`estimated_completed_at\` is the one its create answered with (the first estimate it ever had), compared with its real \`completed_at\`.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| real wait (created → completed), median / max | ${fixed(median(waits), 1)} s / ${fixed(Math.max(...waits), 1)} s |`,
    `| **absolute error of \`estimated_completed_at\` / real wait, median** | **${fixed(100 * median(endErrors), 1)} %** (goal ≤ 25 %) |`,
    `| same, 90th percentile | ${fixed(100 * percentile(endErrors, 0.9), 1)} % |`,
    `| signed error, median (positive: estimated too late) | ${fixed(100 * median(signed), 1)} % |`,
    `| absolute error of \`estimated_start_at\`, median / 90th percentile | ${fixed(median(startErrors), 1)} s / ${fixed(percentile(startErrors, 0.9), 1)} s |`,
    `| largest position at create | ${Math.max(...measured.map((created) => created.position))} |`,
  ];
  await t.stop();
  await files.close();
  await writeResult('queue-eta', lines, 'npx tsx bench/queue-eta.ts');
}

await main();
