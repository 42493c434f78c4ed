/**
 * Benchmark: post-processing types run in parallel (spec 2.4 "Up to 8 different types run in
 * parallel"). Eight types, each one request, against the local OpenAI-compatible chat server
 * with 1 s scripted latency per request, driven by the real `openai` client through
 * runPostProcessing. Parallel runs should take close to 1 s, not 8 s.
 *
 * Run: `npx tsx bench/post-processing-parallelism.ts`. Prints a Markdown table and writes
 * bench/results/post-processing.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { type PostProcessType, runPostProcessing } from '@transcribe/core';
import { MULTI_SPEAKER_TRANSCRIPT, replyLikeAModel, startChatServer } from '@transcribe/core/testing';
import { describeMachine } from './support/bench-kit.ts';

const LATENCY_MS = 1_000;
const PARALLEL_RUNS = 5;
const TYPES: PostProcessType[] = [
  'summary',
  'gist',
  'meeting_minutes',
  'key_facts',
  'chapters',
  'clean_up',
  'translated_subtitles',
  'speaker_names',
];

interface Row {
  setting: string;
  runs: number;
  requests: number;
  seconds: number;
  ratio: number;
}

async function measure(
  baseUrl: string,
  concurrency: number,
  count: () => number,
  types = TYPES,
): Promise<{ seconds: number; requests: number }> {
  const before = count();
  const started = performance.now();
  await runPostProcessing({
    transcript: MULTI_SPEAKER_TRANSCRIPT,
    types,
    targetLanguage: 'fr',
    customPrompt: null,
    llm: { baseUrl, apiKey: 'bench', model: 'bench-model', timeoutMs: 10_000, maxRetries: 0, contextTokens: 8_192, concurrency },
  });
  return { seconds: (performance.now() - started) / 1000, requests: count() - before };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const server = await startChatServer((request) => ({ ...replyLikeAModel(request), delayMs: LATENCY_MS }));
  const count = () => server.requests.length;
  try {
    const cold = await measure(server.baseUrl, 8, count);
    const parallel = [];
    for (let i = 0; i < PARALLEL_RUNS; i += 1) parallel.push(await measure(server.baseUrl, 8, count));
    const serial = await measure(server.baseUrl, 1, count);
    const singles = [];
    for (const type of TYPES) singles.push({ type, ...(await measure(server.baseUrl, 1, count, [type])) });
    const slowest = singles.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    const parallelSeconds = median(parallel.map((run) => run.seconds));
    const rows: Row[] = [
      {
        setting: `slowest single type alone (baseline: ${slowest.type})`,
        runs: 1,
        requests: slowest.requests,
        seconds: slowest.seconds,
        ratio: 1,
      },
      {
        setting: 'concurrency 8, first run (cold: tokenizer and connections)',
        runs: 1,
        requests: cold.requests,
        seconds: cold.seconds,
        ratio: cold.seconds / slowest.seconds,
      },
      {
        setting: 'concurrency 8 (median)',
        runs: PARALLEL_RUNS,
        requests: parallel[0]!.requests,
        seconds: parallelSeconds,
        ratio: parallelSeconds / slowest.seconds,
      },
      {
        setting: 'concurrency 1 (sequential)',
        runs: 1,
        requests: serial.requests,
        seconds: serial.seconds,
        ratio: serial.seconds / slowest.seconds,
      },
    ];
    const report = [
      '# Post-processing parallelism',
      '',
      `${TYPES.length} types (${TYPES.join(', ')}), one request each, local OpenAI-compatible chat server with ` +
        `${LATENCY_MS} ms scripted latency per request, real \`openai\` client, runPostProcessing. ` +
        `Ratio = wall time / the slowest single type run alone in this run (1.0 is perfect parallelism, about ${TYPES.length}.0 is sequential). ` +
        "The chat server runs in the same process as the client, so the client's CPU work (prompts, token " +
        "counting) also delays the server's answers a little.",
      '',
      '| Setting | Runs | Requests per run | Wall time (s) | Ratio |',
      '|---|---|---|---|---|',
      ...rows.map((row) => `| ${row.setting} | ${row.runs} | ${row.requests} | ${row.seconds.toFixed(3)} | ${row.ratio.toFixed(2)} |`),
      '',
      `Speed-up of parallel over sequential: ${(serial.seconds / parallelSeconds).toFixed(2)}x.`,
      '',
      'Reproduce: `npx tsx bench/post-processing-parallelism.ts` (or `npm run bench`).',
      '',
      describeMachine(),
      '',
    ].join('\n');
    console.log(report);
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/post-processing.md', import.meta.url), report);
  } finally {
    await server.close();
  }
}

await main();
