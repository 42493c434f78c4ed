import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { runScriptToEnd, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/apikey.ts';

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

async function statusWithKey(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/replicate/v1/predictions/nope`, { headers: { authorization: `Bearer ${key}` } });
  return response.status;
}

describe('npm run apikey', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'apikey-cli-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should create, list and revoke keys on the embedded database while no service runs', async () => {
    const created = await runScriptToEnd(CLI, ['create', '--label', 'alice'], { DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    const key = lastLine(created.stdout);
    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    const id = /Created API key (key_[0-9a-f]+)/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    const listed = await runScriptToEnd(CLI, ['list'], { DATA_DIR: dataDir });
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('alice');
    expect(listed.stdout).not.toContain(key);
    const revoked = await runScriptToEnd(CLI, ['revoke', id!], { DATA_DIR: dataDir });
    expect(revoked.code).toBe(0);
    expect((await runScriptToEnd(CLI, ['list'], { DATA_DIR: dataDir })).stdout).toMatch(/revoked/);
  });

  it('should reach the running service over loopback instead of opening its database', async () => {
    let service: SpawnedService | undefined;
    try {
      service = await spawnService({ DATA_DIR: dataDir });
      const created = await runScriptToEnd(CLI, ['create', '--label', 'bob'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      const key = lastLine(created.stdout);
      expect(await statusWithKey(service.url, key)).toBe(404);
      const id = /Created API key (key_[0-9a-f]+)/.exec(created.stdout)![1]!;
      expect((await runScriptToEnd(CLI, ['revoke', id], { DATA_DIR: dataDir })).code).toBe(0);
      expect(await statusWithKey(service.url, key)).toBe(401);
    } finally {
      await service?.kill();
    }
  });

  it('should refuse a second service on the same embedded database with a message saying what to do', async () => {
    const first = await spawnService({ DATA_DIR: dataDir });
    try {
      // The refusal is the second service's last log line (LOG_LEVEL error: spawned services are silent by default).
      await expect(spawnService({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }, 20_000)).rejects.toThrow(
        /in use by the service running as process \d+/,
      );
    } finally {
      await first.kill();
    }
  });

  it('should print usage and exit 2 for an unknown command', async () => {
    const result = await runScriptToEnd(CLI, ['explode'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage');
  });

  describe('with PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('should create a key directly in PostgreSQL', async () => {
      const created = await runScriptToEnd(CLI, ['create', '--label', 'carol'], { DATABASE_URL: database.url, DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      expect(lastLine(created.stdout)).toMatch(/^tsk_/);
      expect((await runScriptToEnd(CLI, ['list'], { DATABASE_URL: database.url })).stdout).toContain('carol');
    });
  });
});
