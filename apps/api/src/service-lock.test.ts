import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLiveServiceLock, writeServiceLock } from './service-lock.ts';

describe('readLiveServiceLock', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('should give the running owner’s port and token, ignore a dead owner, and refuse an owner that names no port', async () => {
    dir = await mkdtemp(join(tmpdir(), 'service-lock-'));
    expect(await readLiveServiceLock(dir)).toBeNull();
    await writeServiceLock(dir, { pid: process.ppid, port: 45678, adminToken: 't' });
    expect(await readLiveServiceLock(dir)).toEqual({ pid: process.ppid, port: 45678, adminToken: 't' });
    await writeServiceLock(dir, { pid: 2 ** 22 + 12345, port: 45678, adminToken: 't' }); // no such process
    expect(await readLiveServiceLock(dir)).toBeNull();
    await writeServiceLock(dir, { pid: process.ppid, port: 0, adminToken: 't' }); // a bot alone of an earlier version
    await expect(readLiveServiceLock(dir)).rejects.toThrow(/in use by the bot running alone as process \d+/);
  });
});
