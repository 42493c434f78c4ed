/**
 * Peak memory of a running process (Linux /proc): its own peak RSS as the kernel records it
 * (VmHWM), and the peak of the RSS summed over it and its descendants (ffmpeg, ffprobe, engines),
 * sampled every `intervalMs`.
 */
import { readFileSync } from 'node:fs';

/** `VmRSS` / `VmHWM` of /proc/<pid>/status in bytes; 0 when the process is gone. */
function readStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pids of `pid`'s children (all threads), then theirs, recursively. */
function descendants(pid: number): number[] {
  let tasks: string[] = [];
  try {
    tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
  return tasks.map(Number).flatMap((child) => [child, ...descendants(child)]);
}

export interface MemoryWatch {
  /** Stops sampling; returns the process's VmHWM and the sampled peak of the tree, bytes. */
  stop(): { processPeakBytes: number; treePeakBytes: number };
}

/** Starts sampling the RSS of `pid` and its descendants every `intervalMs` (default 50). */
export function watchProcessMemory(pid: number, intervalMs = 50): MemoryWatch {
  let treePeak = 0;
  const sample = () => {
    const total = [pid, ...descendants(pid)].reduce((sum, each) => sum + readStatusBytes(each, 'VmRSS'), 0);
    treePeak = Math.max(treePeak, total);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { processPeakBytes: readStatusBytes(pid, 'VmHWM'), treePeakBytes: treePeak };
    },
  };
}
