import { describe, expect, it, vi } from 'vitest';
import { fairJobCost, fairQueuePriority, DEFAULT_JOB_COST_SECONDS } from './assign-fair-start-tags.ts';
import { describeDuration, describeQueueWait, waitChangedALot } from './describe-queue-wait.ts';
import { buildQueueSnapshot, placeInSnapshot, type QueueEntry } from './estimate-queue-places.ts';
import { jobTimeModel } from './read-engine-timing.ts';
import { createQueueView } from './create-queue-view.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const model = { overheadSeconds: 2, secondsPerAudioSecond: 0.1, typicalAudioSeconds: 60 };

const entry = (
  id: string,
  priority: number,
  createdSecondsAgo: number,
  audioSeconds: number | null,
  startedSecondsAgo?: number,
): QueueEntry => ({
  id,
  apiKeyId: id[0]!,
  priority,
  createdAt: new Date(NOW - createdSecondsAgo * 1000),
  startedAt: startedSecondsAgo === undefined ? null : new Date(NOW - startedSecondsAgo * 1000),
  audioSeconds,
  expectedAudioSeconds: null,
});

describe('queue estimates', () => {
  it('should lay the waiting jobs on the slots in the fair order: priority, then age', () => {
    // Two slots: r1 (100 s of audio: 12 s, started 2 s ago) frees in 10 s, r2 (10 s: 3 s, started now) in 3 s.
    const snapshot = buildQueueSnapshot(
      [
        entry('r1', 0, 30, 100, 2),
        entry('r2', 0, 30, 10, 0),
        entry('a3', -120, 20, 80), // 10 s
        entry('b1', -60, 5, 20), // 4 s: higher priority, goes first
        entry('a2', -60, 25, 180), // 20 s: same priority, older: before b1
      ],
      model,
      NOW,
      1,
    );
    expect(snapshot.slots).toBe(2);
    expect(snapshot.waiting.map((item) => item.id)).toEqual(['a2', 'b1', 'a3']);
    const place = (id: string) => placeInSnapshot(snapshot, { ...snapshot.waiting.find((item) => item.id === id)!, status: 'processing' })!;
    expect(place('a2')).toEqual({
      position: 0,
      ahead_audio_seconds: 0,
      estimated_start_at: new Date(NOW + 3_000).toISOString(),
      estimated_completed_at: new Date(NOW + 23_000).toISOString(),
    });
    expect(place('b1')).toMatchObject({ position: 1, ahead_audio_seconds: 180, estimated_start_at: new Date(NOW + 10_000).toISOString() });
    expect(place('a3')).toMatchObject({ position: 2, ahead_audio_seconds: 200, estimated_start_at: new Date(NOW + 14_000).toISOString() });
  });

  it('should place a job queued after the snapshot by its priority, and a running one at 0 with its own start', () => {
    const snapshot = buildQueueSnapshot([entry('r1', 0, 30, 100, 2), entry('a2', -60, 25, 180), entry('a3', -120, 20, 80)], model, NOW, 1);
    const fresh = placeInSnapshot(snapshot, { ...entry('c1', -60, 0, null), status: 'processing' })!;
    expect(fresh.position).toBe(1); // after a2 (same priority, older), before a3
    const running = placeInSnapshot(snapshot, { ...entry('r1', 0, 30, 100, 2), status: 'processing' })!;
    expect(running).toMatchObject({ position: 0, estimated_start_at: new Date(NOW - 2_000).toISOString() });
    expect(placeInSnapshot(snapshot, { ...entry('r1', 0, 30, 100, 2), status: 'succeeded' })).toBeNull();
  });

  it('should fit seconds = a + b × audio seconds from the weighted sums, and fall back to a ratio or the defaults', () => {
    const sums = { weight: 0, sum_x: 0, sum_y: 0, sum_xx: 0, sum_xy: 0 };
    for (const x of [10, 20, 40, 80]) {
      const y = 3 + 0.2 * x;
      Object.assign(sums, {
        weight: sums.weight + 1,
        sum_x: sums.sum_x + x,
        sum_y: sums.sum_y + y,
        sum_xx: sums.sum_xx + x * x,
        sum_xy: sums.sum_xy + x * y,
      });
    }
    const fitted = jobTimeModel(sums);
    expect(fitted.overheadSeconds).toBeCloseTo(3, 6);
    expect(fitted.secondsPerAudioSecond).toBeCloseTo(0.2, 6);
    expect(fitted.typicalAudioSeconds).toBeCloseTo(37.5, 6);
    expect(jobTimeModel({ weight: 2, sum_x: 20, sum_y: 4, sum_xx: 200, sum_xy: 40 })).toMatchObject({
      overheadSeconds: 0,
      secondsPerAudioSecond: 0.2,
    });
    expect(jobTimeModel(null)).toEqual({ overheadSeconds: 2, secondsPerAudioSecond: 0.1, typicalAudioSeconds: 60 });
  });

  it('should say the wait in words and only say it again when it changes a lot', () => {
    const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
    const place = { position: 3, ahead_audio_seconds: 1840, estimated_start_at: at(125), estimated_completed_at: at(200) };
    expect(describeQueueWait(place, NOW)).toBe('Waiting: 3 recordings ahead, about 2 minutes');
    expect(describeQueueWait({ ...place, position: 0, estimated_start_at: at(20) }, NOW)).toBe('Waiting: next in line, less than a minute');
    expect(describeQueueWait({ ...place, position: 1 }, NOW)).toBe('Waiting: 1 recording ahead, about 2 minutes');
    expect(describeDuration(3 * 3600)).toBe('about 3 hours');
    expect(waitChangedALot(120, 150)).toBe(false);
    expect(waitChangedALot(20, 40)).toBe(false); // doubled, but by less than a minute
    expect(waitChangedALot(120, 240)).toBe(true);
    expect(waitChangedALot(600, 300)).toBe(true);
  });

  it('should order earlier start tags first in whole virtual seconds, and charge the default for an unknown length', () => {
    expect(fairQueuePriority(0)).toBe(-0);
    expect(fairQueuePriority(60.4)).toBe(-60);
    expect(fairQueuePriority(60.4)).toBeGreaterThan(fairQueuePriority(120));
    expect(fairQueuePriority(1e12)).toBe(-(2 ** 31 - 1));
    expect(fairJobCost(null)).toBe(DEFAULT_JOB_COST_SECONDS);
    expect(fairJobCost(0.2)).toBe(1);
    expect(fairJobCost(11)).toBe(11);
  });
});

describe('queue places in a deep queue', () => {
  it('should give every waiting entry its own index by binary search, as a pass over the sorted queue does', () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(`k${i % 7}-${i}`, -((i * 37) % 50), (i * 13) % 90, 10 + (i % 5)));
    const snapshot = buildQueueSnapshot(entries, model, NOW, 2);
    snapshot.waiting.forEach((waiting, index) => {
      expect(placeInSnapshot(snapshot, { ...waiting, status: 'processing' })!.position).toBe(index);
    });
  });
});

describe('createQueueView', () => {
  /** An executor that answers `count` unfinished rows and no engine timing, counting the queue reads. */
  const rowsOf = (count: number) => {
    let reads = 0;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `p${i}`,
      api_key_id: `k${i % 3}`,
      queue_priority: -i,
      created_at: new Date(NOW - 1000).toISOString(),
      started_at: null,
      audio_seconds: null,
      queue_cost: 60,
    }));
    const database = {
      async executeSql(text: string) {
        if (text.includes('FROM predictions')) {
          reads += 1;
          return { rows };
        }
        return { rows: [] };
      },
    };
    return { database, reads: () => reads };
  };

  it('should read a short queue at most once a second, and a deep one about 1 ms per unfinished prediction', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    try {
      const short = rowsOf(10);
      const shortView = createQueueView(short.database, { engine: 'e', slotsHint: 2 });
      await shortView.snapshot();
      vi.setSystemTime(NOW + 900);
      await shortView.snapshot();
      expect(short.reads()).toBe(1);
      vi.setSystemTime(NOW + 1100);
      await shortView.snapshot();
      expect(short.reads()).toBe(2);

      const deep = rowsOf(5000);
      vi.setSystemTime(NOW);
      const deepView = createQueueView(deep.database, { engine: 'e', slotsHint: 2 });
      await deepView.snapshot();
      vi.setSystemTime(NOW + 4900);
      await deepView.snapshot();
      expect(deep.reads()).toBe(1);
      vi.setSystemTime(NOW + 5100);
      await deepView.snapshot();
      expect(deep.reads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
