import type { Database } from '../../platform/db/open-database.ts';
import type { JobTimeModel } from './estimate-queue-places.ts';

/**
 * Seconds of slot time per second of audio assumed before this deployment has measured any: about
 * PocketSphinx's real-time factor on a small machine (bench/results/real-time-factor.md).
 */
export const DEFAULT_SECONDS_PER_AUDIO_SECOND = 0.1;
/** Per-job seconds assumed before any are measured (download, decode, VAD start-up). */
export const DEFAULT_OVERHEAD_SECONDS = 2;
/** Audio length assumed for a job not yet probed before any are measured, seconds. */
export const DEFAULT_TYPICAL_AUDIO_SECONDS = 60;
/** Fewer measured recognitions than this (by weight): the fit goes through the origin (ratio of sums). */
const MIN_FIT_WEIGHT = 3;

/**
 * The job time model of `engine` from `engine_timings` (the exponentially weighted sums that
 * settle-queue-accounts.ts adds each finished recognition to): the least-squares line
 * `seconds = a + b × audio seconds` over those sums; with few samples, or audio lengths too alike
 * to fit a line, the ratio of the sums (b, a = 0); before any, the defaults above. Both a and b are
 * kept ≥ 0.
 * @throws Error from the database.
 */
export async function readEngineTiming(database: Pick<Database, 'executeSql'>, engine: string): Promise<JobTimeModel> {
  const { rows } = await database.executeSql(`SELECT weight, sum_x, sum_y, sum_xx, sum_xy FROM engine_timings WHERE engine = $1`, [engine]);
  const row = rows[0] as Record<'weight' | 'sum_x' | 'sum_y' | 'sum_xx' | 'sum_xy', number | string> | undefined;
  return jobTimeModel(row ? (Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as never) : null);
}

/** The model from the weighted sums (see readEngineTiming), null: defaults. */
export function jobTimeModel(sums: { weight: number; sum_x: number; sum_y: number; sum_xx: number; sum_xy: number } | null): JobTimeModel {
  if (!sums || sums.weight <= 0 || sums.sum_x <= 0) {
    return {
      overheadSeconds: DEFAULT_OVERHEAD_SECONDS,
      secondsPerAudioSecond: DEFAULT_SECONDS_PER_AUDIO_SECOND,
      typicalAudioSeconds: DEFAULT_TYPICAL_AUDIO_SECONDS,
    };
  }
  const { weight: w, sum_x: x, sum_y: y, sum_xx: xx, sum_xy: xy } = sums;
  const typicalAudioSeconds = x / w;
  const variance = xx / w - (x / w) ** 2;
  if (w >= MIN_FIT_WEIGHT && variance > 1e-6 * Math.max(1, (x / w) ** 2)) {
    const slope = (xy / w - (x / w) * (y / w)) / variance;
    const intercept = y / w - slope * (x / w);
    if (slope >= 0 && intercept >= 0) return { overheadSeconds: intercept, secondsPerAudioSecond: slope, typicalAudioSeconds };
    if (slope < 0) return { overheadSeconds: y / w, secondsPerAudioSecond: 0, typicalAudioSeconds };
  }
  return { overheadSeconds: 0, secondsPerAudioSecond: y / x, typicalAudioSeconds };
}
