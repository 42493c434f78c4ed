/**
 * Where `npm start` spends its time before `GET /health` answers, and how soon a first start without
 * internet says that it cannot reach the model release host.
 *
 * Each start is what `npm start` runs (`node scripts/launch/launch-entry.mjs apps/api/src/main.ts`:
 * the entry built once by esbuild and reused while its sources are unchanged; PGlite, PocketSphinx)
 * in a child process; the client polls `/health` every 20 ms. The phases come from the service's own
 * `listening on …` line (`start_up`: wall-clock and CPU seconds per phase, apps/api/src/time-start-up.ts).
 * Measured in the same run, as baselines: an empty Node process (`node -e 0`) and an empty
 * TypeScript file through tsx (`node --import tsx`, how `npm start` ran before the launcher), so the ratios hold on a busy
 * machine too. CPU seconds (user + system of the service process, all its threads) are what a phase
 * costs on a quiet machine; wall-clock seconds on a shared machine are stretched by the other work
 * (the load average is printed with the results).
 *
 * Starts: one first start (fresh DATA_DIR: PGlite creates its database and runs the migrations;
 * MODELS_AUTO_INSTALL points at a loopback host that accepts connections and never answers, as a
 * release host behind a dead network does), then warm starts on the same folder (2, 4 with --full).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, LAUNCHER } from '../apps/api/src/test-support/spawn-service.ts';
import { REPO_ROOT } from '../apps/api/src/test-support/shared-paths.ts';
import { FULL_RUN, fixed, median, writeResult } from './support/bench-kit.ts';

interface Phase {
  phase: string;
  seconds: number;
  cpuSeconds: number;
}

interface Start {
  kind: 'first' | 'warm';
  /** Spawn → first 200 of /health, seconds (the client's view). */
  healthSeconds: number;
  phases: Phase[];
  /** Seconds from /health answering to the "cannot reach …" line (first start only), or null. */
  probeLineAfterHealth: number | null;
  /** The load average (1/5/15 min) when the start began. */
  load: string;
}

const WARM_STARTS = FULL_RUN ? 4 : 2;

/** Runs `args` with node to its end; wall seconds. */
async function timeNode(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return (performance.now() - started) / 1000;
}

function loadNow(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
}

async function measureStart(kind: Start['kind'], dataDir: string, mirror: string): Promise<Start> {
  const port = await freePort();
  const load = loadNow();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [LAUNCHER, 'apps/api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      MODELS_DIR: join(dataDir, 'models'),
      MODELS_AUTO_INSTALL: mirror,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let healthAt = 0;
  while (healthAt === 0) {
    if (child.exitCode !== null) throw new Error(`the service exited:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) healthAt = performance.now();
    else await sleep(20);
  }
  let probeLineAt: number | null = null;
  if (kind === 'first') {
    const deadline = performance.now() + 60_000;
    while (!output.includes('cannot reach') && performance.now() < deadline) await sleep(20);
    if (output.includes('cannot reach')) probeLineAt = performance.now();
  }
  const lines = output.split('\n').filter((line) => line.startsWith('{'));
  const listening = lines
    .map((line) => JSON.parse(line) as { msg: string; start_up?: Phase[] })
    .find((line) => line.msg.startsWith('listening on'));
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  return {
    kind,
    healthSeconds: (healthAt - started) / 1000,
    phases: listening?.start_up ?? [],
    probeLineAfterHealth: probeLineAt === null ? null : (probeLineAt - healthAt) / 1000,
    load,
  };
}

const dataDir = await mkdtemp(join(tmpdir(), 'bench-startup-'));
// A release "host" that takes connections and never answers: the 5 s probe runs to its end.
const silent = createServer(() => {});
await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
const mirror = `http://127.0.0.1:${(silent.address() as { port: number }).port}/asr-models/`;
const emptyTs = join(dataDir, 'empty.ts');
await writeFile(emptyTs, 'export {};\n');
try {
  const nodeAlone = await timeNode(['-e', '0']);
  const tsxAlone = await timeNode(['--import', 'tsx', emptyTs]);
  const starts: Start[] = [await measureStart('first', dataDir, mirror)];
  for (let i = 0; i < WARM_STARTS; i += 1) starts.push(await measureStart('warm', dataDir, mirror));
  const nodeAgain = await timeNode(['-e', '0']);

  const names = [...new Set(starts.flatMap((start) => start.phases.map((phase) => phase.phase)))];
  const phaseOf = (start: Start, name: string) => start.phases.find((phase) => phase.phase === name);
  const warm = starts.filter((start) => start.kind === 'warm');
  const first = starts[0]!;
  const cpuTotal = (start: Start) => start.phases.reduce((sum, phase) => sum + phase.cpuSeconds, 0);
  const lines = [
    '# Start-up: `npm start` until `GET /health` answers',
    '',
    `The real entry of \`npm start\` (PGlite, PocketSphinx) spawned ${starts.length} times: one first start on a fresh DATA_DIR, then ${WARM_STARTS} warm starts on the same folder. ` +
      'Phases from the service’s own `listening on …` line (wall-clock and CPU seconds of the service process, all its threads); `/health` polled every 20 ms. ' +
      'CPU seconds are what a phase costs on a quiet machine; wall-clock seconds on a shared machine are stretched by the other work (load averages below).',
    '',
    '| Baseline in the same run | Wall seconds |',
    '|---|---|',
    `| empty Node process (\`node -e 0\`), before / after | ${fixed(nodeAlone)} / ${fixed(nodeAgain)} |`,
    `| empty TypeScript file through tsx (\`node --import tsx\`) | ${fixed(tsxAlone)} |`,
    '',
    `| Phase | first start: wall s | CPU s | warm starts (median of ${warm.length}): wall s | CPU s |`,
    '|---|---|---|---|---|',
    ...names.map((name) => {
      const firstPhase = phaseOf(first, name);
      const warmWall = warm.map((start) => phaseOf(start, name)?.seconds ?? 0);
      const warmCpu = warm.map((start) => phaseOf(start, name)?.cpuSeconds ?? 0);
      return `| ${name} | ${fixed(firstPhase?.seconds)} | ${fixed(firstPhase?.cpuSeconds)} | ${fixed(median(warmWall))} | ${fixed(median(warmCpu))} |`;
    }),
    `| **spawn → /health (client)** | **${fixed(first.healthSeconds)}** | ${fixed(cpuTotal(first))} | **${fixed(median(warm.map((start) => start.healthSeconds)))}** | ${fixed(median(warm.map(cpuTotal)))} |`,
    '',
    `Ratios in this run: a warm start to /health is ${fixed(median(warm.map((start) => start.healthSeconds)) / nodeAlone, 0)}× an empty Node process and ` +
      `${fixed(median(warm.map((start) => start.healthSeconds)) / tsxAlone, 1)}× an empty file through tsx; ` +
      `its \`imports\` phase is ${fixed(median(warm.map((start) => (phaseOf(start, 'imports')?.seconds ?? 0) / (start.healthSeconds || 1))) * 100, 0)} % of it.`,
    '',
    `Model probe on the first start (release host silent): the "cannot reach …" line came ${fixed(first.probeLineAfterHealth)} s after /health answered (the probe's own timeout is 5 s; it starts once the port answers).`,
    '',
    'Load average (1/5/15 min) at each start: ' + starts.map((start) => `${start.kind} ${start.load}`).join('; ') + '.',
  ];
  await writeResult('startup', lines, 'npx tsx bench/startup.ts');
} finally {
  silent.close();
  await rm(dataDir, { recursive: true, force: true });
}
