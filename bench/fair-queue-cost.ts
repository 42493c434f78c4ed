/**
 * Benchmark: what the fair queue adds to a create (docs/queue.md "Cost"). On PostgreSQL, with the
 * real service's insert path (ctx.insertPrediction: the fair-queue upsert, then the prediction and its
 * pg-boss job in one statement), measured in the same run:
 * - a bare round trip (`SELECT 1`), the baseline;
 * - the fair-queue step alone (assignFairStartTags: one upsert of `fair_share_keys`) for 1 job and a
 *   batch of 20 jobs of 5 keys;
 * - the whole insert of one prediction (which includes that step), one at a time, and 20 at once
 *   (one group-commit batch).
 *
 * Run: `npx tsx bench/fair-queue-cost.ts`. Writes bench/results/fair-queue-cost.md.
 */
import { randomBytes } from 'node:crypto';
import { assignFairStartTags, createApiKey } from '@transcribe/core';
import { startTestService } from '../apps/api/src/test-support/start-test-service.ts';
import { fixed, median, writeResult } from './support/bench-kit.ts';

const ROUNDS = 200;

async function timeEach(rounds: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i += 1) await run(); // warm-up: prepared statements, caches
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const began = performance.now();
    await run();
    times.push(performance.now() - began);
  }
  return median(times);
}

async function main(): Promise<void> {
  const t = await startTestService('postgres', { WORKER_CONCURRENCY: '0', RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1' });
  const { ctx } = t.service;
  const keyIds: string[] = [];
  for (let k = 0; k < 5; k += 1) keyIds.push((await createApiKey(ctx.database.db, `cost-${k}`)).id);
  const values = (apiKeyId: string) => {
    const id = randomBytes(13).toString('hex');
    return {
      id,
      apiKeyId,
      status: 'processing' as const,
      input: { audio: 'x' },
      params: { audio: 'x' } as never,
      source: { kind: 'link' as const, url: 'x' },
    };
  };
  const roundTrip = await timeEach(ROUNDS, () => ctx.database.executeSql('SELECT 1'));
  const fairOne = await timeEach(ROUNDS, () => assignFairStartTags(ctx.database.db, [{ key: keyIds[0]! }]));
  const fairBatch = await timeEach(ROUNDS, () =>
    assignFairStartTags(
      ctx.database.db,
      Array.from({ length: 20 }, (_, i) => ({ key: keyIds[i % 5]! })),
    ),
  );
  const insertOne = await timeEach(ROUNDS, () => ctx.insertPrediction({ values: values(keyIds[0]!) }));
  const insertBatch = await timeEach(ROUNDS / 4, () =>
    Promise.all(Array.from({ length: 20 }, (_, i) => ctx.insertPrediction({ values: values(keyIds[i % 5]!) }))),
  );
  await t.stop();
  const lines = [
    '# What the fair queue adds to a create',
    '',
    `PostgreSQL on this machine, medians of ${ROUNDS} runs each (batches: ${ROUNDS / 4}), measured in one run; the service's own insert path (ctx.insertPrediction).`,
    '',
    '| step | median | vs. a bare round trip |',
    '|---|---|---|',
    `| bare round trip (\`SELECT 1\`), baseline | ${fixed(roundTrip, 3)} ms | 1.0× |`,
    `| fair-queue upsert, 1 job | ${fixed(fairOne, 3)} ms | ${fixed(fairOne / roundTrip, 1)}× |`,
    `| fair-queue upsert, batch of 20 jobs of 5 keys | ${fixed(fairBatch, 3)} ms (${fixed(fairBatch / 20, 3)} ms a job) | ${fixed(fairBatch / roundTrip, 1)}× |`,
    `| whole insert of 1 prediction (upsert + prediction and job) | ${fixed(insertOne, 3)} ms | ${fixed(insertOne / roundTrip, 1)}× |`,
    `| whole insert, 20 at once (one batch) | ${fixed(insertBatch, 3)} ms (${fixed(insertBatch / 20, 3)} ms a prediction) | ${fixed(insertBatch / roundTrip, 1)}× |`,
    '',
    `The fair-queue step is ${fixed((100 * fairOne) / insertOne, 0)} % of a lone create's insert time and ${fixed((100 * fairBatch) / insertBatch, 0)} % of a batch's.`,
  ];
  await writeResult('fair-queue-cost', lines, 'npx tsx bench/fair-queue-cost.ts');
}

await main();
