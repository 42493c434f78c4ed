import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScriptToEnd } from '../test-support/spawn-service.ts';

const CLIS = {
  apikey: 'apps/api/src/cli/apikey.ts',
  portal: 'apps/api/src/cli/portal.ts',
  models: 'apps/api/src/cli/models.ts',
  worker: 'apps/api/src/worker-main.ts',
  bot: 'apps/bot/src/main.ts',
  bench: 'bench/run.ts',
  'bench:quality': 'bench/quality/run-quality-bench.ts',
} as const;

/**
 * Every CLI, spawned as npm runs it: `--help` and `-h` (on the program and on each command) print
 * the usage and exit 0 (`bench` and `bench:quality` start no run); an unknown command or option, or
 * a command without its argument, prints one line naming it, then the usage, and exits 2
 * (EXIT.usage, create-cli.ts); a name that names nothing exits 3; never a stack trace.
 */
describe('the command-line programs', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cli-usage-'));
    env = { DATA_DIR: dataDir, MODELS_DIR: join(dataDir, 'models') };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['apikey', ['--help']],
    ['apikey', ['-h']],
    ['apikey', ['create', '--help']],
    ['apikey', ['revoke', '-h']],
    ['portal', ['--help']],
    ['portal', ['login-link', '-h']],
    ['models', ['--help']],
    ['models', ['download', '-h']],
    ['worker', ['--help']],
    ['worker', ['-h']],
    ['bot', ['--help']],
    ['bench', ['--help']],
    ['bench:quality', ['--help']],
  ] as const)('%s %j should print the usage and exit 0', async (cli, args) => {
    const run = await runScriptToEnd(CLIS[cli], [...args], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage:/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    if (cli.startsWith('bench')) expect(run.stdout).not.toMatch(/===|WER over|WER per clip/); // the usage only: no run started (a run prints figures)
  });

  it.each([
    ['apikey', ['create', '--lable', 'x'], "error: unknown option '--lable'"],
    ['apikey', ['revok', 'key_1'], "error: unknown command 'revok'"],
    ['apikey', ['revoke'], "error: missing required argument 'id'"],
    ['portal', ['login-link', '--acount', 'x'], "error: unknown option '--acount'"],
    ['portal', ['login-link', '--account', 'a', '--telegram', '5'], 'error: give --account or --telegram, not both'],
    ['models', ['list', '--bogus'], "models: Unknown option '--bogus'."],
    ['worker', ['--concurrency', '4'], "error: unknown option '--concurrency'"],
    ['models', ['lst'], "models: unknown command 'lst' (did you mean list?)"],
    ['models', ['download'], 'models: download needs a model NAME'],
    ['models', ['install'], 'models: install needs a model archive or folder'],
    ['bench', ['--fulll'], "bench: unknown option '--fulll'"],
  ] as const)('%s %j should name the mistake in one line, show the usage and exit 2', async (cli, args, first) => {
    const run = await runScriptToEnd(CLIS[cli], [...args], env);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toContain(first);
    expect(run.stderr).toMatch(/Usage:/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['models', ['install', '/nonexistent/model.tar.bz2'], 'models: /nonexistent/model.tar.bz2 does not exist'],
    ['bench', ['no-such-bench'], "bench: no benchmark named 'no-such-bench'"],
  ] as const)('%s %j should say that nothing has that name and exit 3', async (cli, args, first) => {
    const run = await runScriptToEnd(CLIS[cli], [...args], env);
    expect(run.code).toBe(3);
    expect(run.stderr.split('\n')[0]).toContain(first);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
