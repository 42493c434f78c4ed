/**
 * `npm run bench`: runs every benchmark script in this folder one after another (never in parallel:
 * the machine has 2 cores) and lists the result files. Each script measures its own baseline in the
 * same run and writes a Markdown table to bench/results/. Pass names to run only some:
 * `npm run bench -- post-processing-parallelism`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && name !== 'run.ts' && !name.endsWith('.test.ts'))
  .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/\.ts$/, '')))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
console.log(`\n${scripts.length - failed} benchmarks finished, ${failed} failed; results in bench/results/`);
process.exitCode = failed > 0 ? 1 : 0;
