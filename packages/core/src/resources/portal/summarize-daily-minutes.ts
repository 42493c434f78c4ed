import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { usageLedger } from '../../platform/db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DailyMinutes {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Minutes of audio charged that day (recognition and first uses of cached transcripts). */
  chargedMinutes: number;
  /** Minutes of audio served as free repeats that day (spec 2.6.2). */
  freeMinutes: number;
}

/**
 * Audio minutes per UTC day of `owner` from the usage ledger, for every day of the cache window
 * (spec 2.6.1: `windowDays`, 27 by default) up to today, oldest first; days without use are zeros.
 */
export async function summarizeDailyMinutes(db: Db, owner: string, windowDays: number, now = new Date()): Promise<DailyMinutes[]> {
  const since = new Date(now.getTime() - windowDays * DAY_MS);
  const day = sql<string>`to_char(${usageLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      charged: sql<number>`coalesce(sum(${usageLedger.audioSeconds}) filter (where ${usageLedger.reason} <> 'free_repeat'), 0)::float8`,
      free: sql<number>`coalesce(sum(${usageLedger.audioSeconds}) filter (where ${usageLedger.reason} = 'free_repeat'), 0)::float8`,
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.userId, owner), gt(usageLedger.createdAt, since)))
    .groupBy(day);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: DailyMinutes[] = [];
  for (let time = since.getTime(); ; time += DAY_MS) {
    const key = new Date(Math.min(time, now.getTime())).toISOString().slice(0, 10);
    if (days.at(-1)?.day !== key) {
      const row = byDay.get(key);
      days.push({ day: key, chargedMinutes: round(Number(row?.charged ?? 0) / 60), freeMinutes: round(Number(row?.free ?? 0) / 60) });
    }
    if (time >= now.getTime()) break;
  }
  return days;
}

function round(minutes: number): number {
  return Math.round(minutes * 1000) / 1000;
}
