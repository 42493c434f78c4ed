/**
 * `npm run bench`: runs every benchmark script in this folder one after another (never in parallel:
 * the machine has 2 cores) and lists the result files. Each script measures its own baseline in the
 * same run and writes a Markdown table to bench/results/. The default is a quick run (minutes per
 * script); `--full` adds the long measurements (more repetitions, longer files): it reaches the
 * scripts as BENCH_FULL=1 in their environment (so scripts with strict argument parsers are not
 * disturbed; bench/support/bench-kit.ts reads it). Pass names to run only some:
 * `npm run bench -- --full pipeline-overhead memory`. `--help` prints the usage and the names; an
 * unknown option or name is refused before anything runs (exit codes of the CLIs: docs/deployment.md).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const available = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && name !== 'run.ts' && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
  .map((name) => name.replace(/\.ts$/, ''))
  .sort();
const USAGE = `Usage: npm run bench -- [--full] [NAME...]
  Runs the benchmarks one after another (each measures its baseline in the same run) and writes
  bench/results/NAME.md. Without NAME: all of them (a quick run, minutes each).
  --full      the long measurements too (more repetitions, longer files)
  -h, --help  this text
  NAME        one of: ${available.join(', ')}
Exit codes: 0 all finished; 1 a benchmark failed; 2 usage mistake; 3 no benchmark by that name`;
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknownOption = args.find((arg) => arg.startsWith('-') && arg !== '--full');
if (unknownOption) {
  console.error(`bench: unknown option '${unknownOption}'\n${USAGE}`);
  process.exit(2);
}
const full = args.includes('--full');
const wanted = args.filter((arg) => !arg.startsWith('-'));
const unknownName = wanted.find((name) => !available.includes(name));
if (unknownName) {
  console.error(`bench: no benchmark named '${unknownName}'; the names are ${available.join(', ')}`);
  process.exit(3);
}
const scripts = available.filter((name) => wanted.length === 0 || wanted.includes(name)).map((name) => `${name}.ts`);

let failed = 0;
const started = Date.now();
for (const script of scripts) {
  console.log(`\n=== bench/${script}${full ? ' (full)' : ''}`);
  const began = Date.now();
  const env = { ...process.env, ...(full ? { BENCH_FULL: '1' } : {}) };
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, script)], { stdio: 'inherit', env });
  if (result.status !== 0) failed += 1;
  console.log(`=== bench/${script}: ${result.status === 0 ? 'done' : 'FAILED'} in ${((Date.now() - began) / 1000).toFixed(0)} s`);
}
console.log(
  `\n${scripts.length - failed} benchmarks finished, ${failed} failed in ${((Date.now() - started) / 60000).toFixed(1)} min; results in bench/results/`,
);
process.exitCode = failed > 0 ? 1 : 0;
