/**
 * Shared pieces of the benchmark scripts: the machine description every result file carries, the
 * `--full` flag, medians, and writing `bench/results/<name>.md`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';

/** True for `npm run bench -- --full` (BENCH_FULL=1) or a script run with `--full`: the long measurements too. */
export const FULL_RUN = process.argv.includes('--full') || process.env.BENCH_FULL === '1';

/** One Markdown line: CPU model, cores, memory, Node version, load average at the time, date. */
export function describeMachine(): string {
  const cpus = os.cpus();
  const memoryGiB = (os.totalmem() / 1024 ** 3).toFixed(1);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
  return (
    `Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${memoryGiB} GiB memory, ` +
    `Node ${process.version}, ${os.type()} ${os.release()}; load average (1/5/15 min) at the end: ${load}; ` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`
  );
}

/** The median of `values` (the upper one of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `value` with `digits` decimals; `—` for null / NaN. */
export function fixed(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

/** Bytes as MB (10^6), one decimal. */
export function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/**
 * Prints the report and writes it to `bench/results/<name>.md`, with the machine description and the
 * command that reproduces it appended.
 */
export async function writeResult(name: string, lines: string[], command: string): Promise<void> {
  const report = [
    ...lines,
    '',
    `Reproduce: \`${command}\` (or \`npm run bench${FULL_RUN ? ' -- --full' : ''}\` for every benchmark). ` +
      `Run mode: ${FULL_RUN ? 'full (`--full`)' : 'quick (default)'}.`,
    '',
    describeMachine(),
    '',
  ].join('\n');
  console.log(report);
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL(`${name}.md`, dir), report);
}

/** Seconds since `started` (a performance.now() value). */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
