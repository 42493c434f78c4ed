import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tieChildToParent } from '@transcribe/core';
import { seedPgliteDataDir } from './pglite-template.ts';
import { REPO_ROOT } from './shared-paths.ts';

/** What the npm scripts run: `node scripts/launch/launch-entry.mjs <entry> [args…]`. */
export const LAUNCHER = join(REPO_ROOT, 'scripts', 'launch', 'launch-entry.mjs');

export interface SpawnedService {
  url: string;
  child: ChildProcess;
  /** Output of the process so far (for failure messages). */
  output(): string;
  /** Ends the process with `signal` and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Runs a repository entry (e.g. `apps/api/src/cli/apikey.ts`) in a child process as the npm scripts
 * do: through scripts/launch/launch-entry.mjs, which builds it with esbuild and runs the JavaScript.
 * The first-start model install is off unless `env` turns it on (tests and benchmarks never reach
 * the internet). The child is tied to this process (tieChildToParent, SIGTERM): it ends when this
 * process dies, however it dies.
 */
export function runScript(script: string, args: string[], env: Record<string, string>): ChildProcess {
  // Tied to this test process (setpriv --pdeathsig): a vitest worker that is killed or crashes takes
  // its services with it (SIGTERM, so they stop their own children) instead of leaving them running.
  const { command, args: line } = tieChildToParent(process.execPath, [LAUNCHER, script, ...args], 'SIGTERM');
  return spawn(command, line, {
    cwd: REPO_ROOT,
    env: { ...process.env, MODELS_AUTO_INSTALL: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `npm start`'s entry point in a child process and waits until /health answers (at most
 * `timeoutMs`: a bound for a failing start, generous for a loaded 2-core machine). A `DATA_DIR`
 * with no database yet and no `DATABASE_URL` first gets a copy of the migrated PGlite template
 * (pglite-template.ts), unless `freshDatabase` asks for the first-start path (initdb, migrations).
 */
export async function spawnService(
  env: Record<string, string>,
  timeoutMs = 180_000,
  { freshDatabase = false }: { freshDatabase?: boolean } = {},
): Promise<SpawnedService> {
  if (!freshDatabase && env.DATA_DIR && !env.DATABASE_URL && !existsSync(join(env.DATA_DIR, 'pglite'))) {
    await seedPgliteDataDir(env.DATA_DIR);
  }
  const port = env.PORT ?? String(await freePort());
  const child = runScript('apps/api/src/main.ts', [], { HOST: '127.0.0.1', ...env, PORT: port });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(200);
  }
  if (child.exitCode !== null || Date.now() >= deadline) throw new Error(`service did not start:\n${output}`);
  return {
    url,
    child,
    output: () => output,
    kill: (signal = 'SIGTERM') =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        child.kill(signal);
      }),
  };
}

/** Runs a script to its end and returns its exit code and output. */
export async function runScriptToEnd(script: string, args: string[], env: Record<string, string>) {
  const child = runScript(script, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, stdout, stderr };
}
