import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeEngineEnv, MULTI_PROCESS_TEST_TIMEOUT_MS, SPAWN_TIMEOUT_MS } from '../test-support/fake-engine-service.ts';
import { REPO_ROOT } from '../test-support/shared-paths.ts';
import { findLogLines } from '../test-support/read-log-lines.ts';
import { freePort } from '../test-support/spawn-service.ts';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs `command args…` from the repository root as a person would type it, with `env` added. */
function start(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, output: () => output, exited: new Promise((done) => child.once('exit', (code) => done(code))) };
}

async function waitForHealth(port: number, started: Started): Promise<void> {
  const deadline = Date.now() + SPAWN_TIMEOUT_MS;
  while (Date.now() < deadline && started.child.exitCode === null) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error(`the service did not answer /health:\n${started.output()}`);
}

/** Whether this process can listen on the port now (nothing else holds it). */
async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  const free = await new Promise<boolean>((done) => {
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => done(true));
  });
  if (free) await new Promise((done) => server.close(done));
  return free;
}

/**
 * A stop is a stop: SIGTERM sent to what the README starts (`npm start`, `bash scripts/start.sh`)
 * reaches the service itself, which drains, releases its port and exits, leaving no process behind.
 */
describe('starting and stopping the service as the README does', () => {
  const dirs: string[] = [];
  let blocker: Server | null = null;
  const live: Started[] = [];

  const newEnv = async (port: number) => {
    const dir = await mkdtemp(join(tmpdir(), 'start-stop-'));
    dirs.push(dir);
    return { ...fakeEngineEnv(dir, null), PORT: String(port), HOST: '127.0.0.1', MODELS_AUTO_INSTALL: '0', LOG_LEVEL: 'info' };
  };

  afterAll(async () => {
    for (const started of live) if (started.child.exitCode === null) started.child.kill('SIGKILL');
    await new Promise((done) => (blocker ? blocker.close(done) : done(undefined)));
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  for (const [name, command, args] of [
    ['npm start', 'npm', ['start']],
    ['bash scripts/start.sh', 'bash', ['scripts/start.sh']],
  ] as const) {
    it(
      `should drain, release the port and leave no process when \`${name}\` gets SIGTERM`,
      { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
      async () => {
        const port = await freePort();
        const started = start(command, [...args], await newEnv(port));
        live.push(started);
        await waitForHealth(port, started);
        started.child.kill('SIGTERM'); // to the process the person started, not to node below it
        expect(await started.exited).toBe(0);
        expect(findLogLines(started.output(), 'service', 'SIGTERM: finishing running work, then stopping')).toHaveLength(1);
        // The service itself is gone, not only its wrapper: the port is free and /health is refused.
        expect(
          await fetch(`http://127.0.0.1:${port}/health`).then(
            () => 'answered',
            () => 'refused',
          ),
        ).toBe('refused');
        expect(await portIsFree(port)).toBe(true);
      },
    );
  }

  it('should say which port is in use and how to choose another, and exit 1', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    const port = await freePort();
    blocker = createServer();
    await new Promise<void>((done) => blocker!.listen(port, '127.0.0.1', done));
    const started = start('npm', ['start'], await newEnv(port));
    live.push(started);
    expect(await started.exited).toBe(1);
    expect(
      findLogLines(
        started.output(),
        'service',
        `could not start: port ${port} is in use; set PORT to a free port, or stop what listens there`,
      ),
    ).toHaveLength(1);
    expect(started.output()).not.toContain('Cannot read properties');
  });
});
