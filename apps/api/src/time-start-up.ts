/** One phase of a start: its name and how long it took, in seconds of wall-clock and of this process's CPU. */
export interface StartUpPhase {
  phase: string;
  /** Wall-clock seconds the phase took. */
  seconds: number;
  /** CPU seconds (user + system, all threads of this process) spent in it: what the phase costs on a quiet machine. */
  cpuSeconds: number;
}

/** Records the phases of a start, each from the end of the previous one (createStartUpClock). */
export interface StartUpClock {
  /** Ends the current phase under `phase` and starts the next one. */
  mark(phase: string): void;
  /** The phases marked so far, in order. */
  phases(): StartUpPhase[];
}

/**
 * A clock for the phases of a start, so an operator (the `listening on …` line of `npm start`) and
 * bench/startup.ts see where a start spends its time. Both measures are kept: wall-clock time is
 * what the operator waits, CPU time what the phase costs when the machine is busy with other work
 * (a loaded machine stretches the first, hardly the second). With `fromProcessStart`, the first
 * phase begins when the process began (`performance.timeOrigin`; its CPU from 0), so Node's boot,
 * the TypeScript loader and the imports of the entry point are the first phase.
 */
export function createStartUpClock(options: { fromProcessStart?: boolean } = {}): StartUpClock {
  const cpuNow = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  let wall = options.fromProcessStart ? 0 : performance.now();
  let cpu = options.fromProcessStart ? 0 : cpuNow();
  const phases: StartUpPhase[] = [];
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    mark(phase) {
      const [wallNow, cpuThen] = [performance.now(), cpuNow()];
      phases.push({ phase, seconds: round((wallNow - wall) / 1000), cpuSeconds: round(cpuThen - cpu) });
      [wall, cpu] = [wallNow, cpuThen];
    },
    phases: () => [...phases],
  };
}
