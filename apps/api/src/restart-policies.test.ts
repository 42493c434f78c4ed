import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEnv, ENV_VARIABLES, parseEnv } from './env.ts';
import { REPO_ROOT } from './test-support/shared-paths.ts';

const UNIT_PATH = join(REPO_ROOT, 'deploy', 'transcribe.service');
const UNIT_TEXT = readFileSync(UNIT_PATH, 'utf8');
const COMPOSE_TEXT = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');

/**
 * Longest a drained stop can take, ms (apps/api/src/start-service.ts `stop()`): the worker waits
 * SHUTDOWN_TIMEOUT_MS for running jobs, then up to 10 s for the aborted ones
 * (start-transcribe-worker.ts ABORTED_RUNS_GRACE_MS), then pg-boss's own stop may take SHUTDOWN_TIMEOUT_MS again.
 */
const worstStopMs = (shutdownTimeoutMs: number) => 2 * shutdownTimeoutMs + 10_000;

/** The unit's settings: section → key → every value given (in order; `Environment=` may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (!current || eq < 1) throw new Error(`not a unit line: ${line}`);
    const key = line.slice(0, eq);
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1)]);
  }
  return sections;
}

/** The one value of `key` in `section`; throws when it is missing or given twice. */
function one(unit: Map<string, Map<string, string[]>>, section: string, key: string): string {
  const values = unit.get(section)?.get(key) ?? [];
  if (values.length !== 1) throw new Error(`[${section}] ${key} is given ${values.length} times`);
  return values[0]!;
}

/** A systemd time span in ms: `90`, `90s`, `1min 30s`, `2min`. */
function timeSpanMs(value: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, sec: 1000, '': 1000, m: 60_000, min: 60_000, h: 3_600_000 };
  let total = 0;
  for (const part of value.trim().split(/\s+/)) {
    const match = /^(\d+)([a-z]*)$/.exec(part);
    if (!match || units[match[2]!] === undefined) throw new Error(`not a time span: ${value}`);
    total += Number(match[1]) * units[match[2]!]!;
  }
  return total;
}

describe('deploy/transcribe.service (the systemd unit of docs/deployment.md)', () => {
  const unit = parseUnit(UNIT_TEXT);
  const environment = new Map(
    (unit.get('Service')?.get('Environment') ?? []).map((entry) => {
      const eq = entry.indexOf('=');
      return [entry.slice(0, eq), entry.slice(eq + 1)] as const;
    }),
  );

  it('should restart a crashed service, with a pause and a bound on restarts', () => {
    expect(one(unit, 'Service', 'Restart')).toBe('on-failure'); // not after a drained stop (exit 0)
    expect(timeSpanMs(one(unit, 'Service', 'RestartSec'))).toBeGreaterThanOrEqual(1000);
    // The start limit belongs in [Unit] (systemd 230 and later ignore it in [Service]).
    expect(timeSpanMs(one(unit, 'Unit', 'StartLimitIntervalSec'))).toBeGreaterThan(5 * timeSpanMs(one(unit, 'Service', 'RestartSec')));
    // A recording that crashes the process on every try crashes it 3 times (pg-boss retryLimit 2), and the
    // 4th start ends it `failed`: the limit must leave room for that start, and for more than one such recording.
    expect(Number(one(unit, 'Unit', 'StartLimitBurst'))).toBeGreaterThan(2 * 3 + 1);
  });

  it('should stop with SIGTERM to node, wait longer than the drain, then kill what is left, children included', () => {
    expect(one(unit, 'Service', 'KillSignal')).toBe('SIGTERM');
    expect(['mixed', 'control-group']).toContain(one(unit, 'Service', 'KillMode'));
    const stopMs = timeSpanMs(one(unit, 'Service', 'TimeoutStopSec'));
    const defaultShutdown = parseEnv({}).SHUTDOWN_TIMEOUT_MS;
    expect(stopMs).toBeGreaterThan(defaultShutdown);
    expect(stopMs).toBeGreaterThan(worstStopMs(defaultShutdown));
    const configured = environment.get('SHUTDOWN_TIMEOUT_MS');
    if (configured !== undefined) expect(stopMs).toBeGreaterThan(worstStopMs(Number(configured)));
  });

  it('should run node itself on main.ts as a dedicated user in the checkout, with known settings only', () => {
    const [program, ...args] = one(unit, 'Service', 'ExecStart').split(/\s+/);
    expect(program).toMatch(/^\/.*\/node$/);
    expect(args).toEqual(['scripts/launch/launch-entry.mjs', 'apps/api/src/main.ts']);
    expect(existsSync(join(REPO_ROOT, args[0]!))).toBe(true);
    expect(existsSync(join(REPO_ROOT, args[1]!))).toBe(true);
    expect(one(unit, 'Service', 'WorkingDirectory')).toMatch(/^\//);
    expect(one(unit, 'Service', 'User')).not.toBe('root');
    expect(environment.size).toBeGreaterThan(0);
    for (const name of environment.keys()) expect(ENV_VARIABLES, `Environment=${name}`).toContain(name);
    expect(checkEnv(Object.fromEntries(environment)).problems).toEqual([]); // parseEnv would exit the process on a bad value
  });

  const analyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
  const tmp = mkdtempSync(join(tmpdir(), 'systemd-unit-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.runIf(analyze.status === 0)('should pass `systemd-analyze verify` without a warning', () => {
    // The node of this machine stands in for /usr/bin/node (verify checks that the program exists).
    const copy = join(tmp, 'transcribe.service');
    writeFileSync(copy, UNIT_TEXT.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 0, stderr: '' });
    // The same check sees a misspelt key (a warning, not an error): the test above can fail.
    writeFileSync(copy, UNIT_TEXT.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`).replace(/^KillMode=/m, 'KilMode='));
    expect(spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' }).stderr).toMatch(/Unknown key 'KilMode'/);
  });
});

describe('docker-compose.yml restart and stop settings', () => {
  /** The lines of the `x-app` block that every role (api, worker, bot) merges in. */
  const appBlock = /^x-app: &app\n((?:[ #].*\n|\n)*)/m.exec(COMPOSE_TEXT)?.[1] ?? '';

  it('should restart every role and PostgreSQL after a crash, but not after a stop', () => {
    expect(appBlock).toMatch(/^ {2}restart: unless-stopped$/m);
    for (const role of ['api', 'worker', 'bot']) expect(COMPOSE_TEXT).toMatch(new RegExp(`^ {2}${role}:\\n {4}<<: \\*app$`, 'm'));
    expect(COMPOSE_TEXT).toMatch(/^ {2}postgres:\n(?: {4}.*\n)*? {4}restart: unless-stopped$/m);
  });

  it('should give a stop longer than the drain before Docker kills (its default is 10 s)', () => {
    const grace = /^ {2}stop_grace_period: (\d+)s$/m.exec(appBlock);
    expect(grace, 'stop_grace_period in x-app').not.toBeNull();
    expect(Number(grace![1]) * 1000).toBeGreaterThan(worstStopMs(parseEnv({}).SHUTDOWN_TIMEOUT_MS));
  });
});
