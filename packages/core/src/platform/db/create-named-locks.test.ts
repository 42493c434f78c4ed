import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { advisoryLockKey, createAdvisoryLocks, createInProcessLocks, type NamedLocks } from './create-named-locks.ts';

/** PostgreSQL server of the tests (trust auth); advisory locks need no tables. */
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const pool = postgres(POSTGRES_URL, { max: 2, onnotice: () => {} });
afterAll(() => pool.end());

/** Resolves to true when `promise` settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    sleep(ms).then(() => false),
  ]);

describe.each([
  ['in-process (PGlite)', () => createInProcessLocks()],
  ['PostgreSQL advisory', () => createAdvisoryLocks(POSTGRES_URL, pool)],
] as const)('%s named locks', (_kind, make: () => NamedLocks) => {
  const name = () => `test-${randomBytes(6).toString('hex')}`;

  it('should let one holder at a time take a name, in turn, and other names at once', async () => {
    const locks = make();
    const lock = name();
    const release = await locks.acquire(lock);
    const second = locks.acquire(lock);
    expect(await settlesWithin(second, 300)).toBe(false);
    const other = await locks.acquire(name());
    await other();
    await release();
    const releaseSecond = await second;
    await releaseSecond();
    await releaseSecond(); // idempotent
    await (
      await locks.acquire(lock)
    )();
  });

  it('should stop waiting with the signal reason when aborted, holding nothing', async () => {
    const locks = make();
    const lock = name();
    const release = await locks.acquire(lock);
    const controller = new AbortController();
    const waiting = locks.acquire(lock, controller.signal);
    await sleep(100);
    controller.abort(new Error('canceled'));
    await expect(waiting).rejects.toThrow('canceled');
    await release();
    await (
      await locks.acquire(lock)
    )(); // the aborted waiter left nothing held
  });

  it('should tell when a name is free without taking it', async () => {
    const locks = make();
    const lock = name();
    await locks.waitUntilFree(lock); // free: at once
    const release = await locks.acquire(lock);
    const free = locks.waitUntilFree(lock);
    expect(await settlesWithin(free, 400)).toBe(false);
    await release();
    await free;
    const controller = new AbortController();
    const held = await locks.acquire(lock);
    const aborted = locks.waitUntilFree(lock, controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    await held();
  });
});

describe('PostgreSQL advisory named locks across sessions', () => {
  it("should free a lock when its holder's session ends without a release (a crashed process)", async () => {
    const lock = `test-${randomBytes(6).toString('hex')}`;
    const holder = createAdvisoryLocks(POSTGRES_URL, pool);
    await holder.acquire(lock);
    const key = advisoryLockKey(lock).toString();
    const [session] = await pool<
      { pid: number }[]
    >`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = ${key}::bigint`;
    expect(session).toBeDefined();
    const waiting = createAdvisoryLocks(POSTGRES_URL, pool).acquire(lock);
    expect(await settlesWithin(waiting, 300)).toBe(false);
    await pool`SELECT pg_terminate_backend(${session!.pid})`;
    await (
      await waiting
    )();
  });
});

describe('PostgreSQL advisory named locks aborted while their session opens', () => {
  it('should leave no unhandled rejection when a wait is aborted at any point of the connection start', async () => {
    // postgres.js reads the server's array types right after the handshake, in a promise nobody
    // awaits; closing the session during that read rejected it unhandled (a stopping worker's
    // aborted lock wait did this and failed a test run).
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on('unhandledRejection', onStray);
    try {
      const locks = createAdvisoryLocks(POSTGRES_URL, pool);
      const lock = `test-${randomBytes(6).toString('hex')}`;
      const release = await locks.acquire(lock);
      for (let i = 0; i < 60; i++) {
        const controller = new AbortController();
        const waiting = locks.acquire(lock, controller.signal);
        // From at once to well after the handshake, in steps of about a tenth of a millisecond.
        await sleep(i / 10);
        controller.abort(new Error('stopping'));
        await expect(waiting).rejects.toThrow('stopping');
      }
      await release();
      await sleep(200);
    } finally {
      process.off('unhandledRejection', onStray);
    }
    expect(stray).toEqual([]);
  });
});
