import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, reissueUserApiKey } from '@transcribe/core';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { runScriptToEnd, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/apikey.ts';

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

const idOf = (stdout: string) => /Created API key (key_[0-9a-f]+)/.exec(stdout)?.[1];

async function statusWithKey(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/replicate/v1/predictions/nope`, { headers: { authorization: `Bearer ${key}` } });
  return response.status;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('npm run apikey', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'apikey-cli-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should refuse a data folder the service never used (exit 4) and make nothing there, unless --create-database', async () => {
    const pglite = join(dataDir, 'pglite');
    const refused = await runScriptToEnd(CLI, ['create', '--label', 'alice'], { DATA_DIR: dataDir });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`apikey: no service database in the embedded database in ${pglite}`);
    expect(refused.stderr).toContain(`Set DATA_DIR (now ${dataDir}) to what the service uses`);
    expect(refused.stderr).toContain('--create-database');
    expect(await exists(pglite)).toBe(false);

    const created = await runScriptToEnd(CLI, ['create', '--label', 'alice', '--create-database'], { DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`(label "alice") in the embedded database in ${pglite}.`);
    expect(lastLine(created.stdout)).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(await exists(join(pglite, 'PG_VERSION'))).toBe(true);
  });

  describe('while the service runs on the embedded database', () => {
    let service: SpawnedService;

    beforeAll(async () => {
      service = await spawnService({ DATA_DIR: dataDir });
    });

    afterAll(async () => {
      await service?.kill();
    });

    it('should create, list and revoke keys over loopback, saying it went through the running service', async () => {
      const created = await runScriptToEnd(CLI, ['create', '--label', 'bob'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/\(label "bob"\) in the running service \(process \d+, port \d+\), on its embedded database in /);
      const key = lastLine(created.stdout);
      const id = idOf(created.stdout)!;
      expect(await statusWithKey(service.url, key)).toBe(404);

      const listed = await runScriptToEnd(CLI, ['list'], { DATA_DIR: dataDir });
      const rows = listed.stdout.trim().split('\n');
      expect(rows[0]).toMatch(/^API keys in the running service/);
      expect(rows[1]).toMatch(/^ID +PREFIX +CREATED +OWNER +STATE +LABEL$/);
      expect(rows.find((row) => row.startsWith(id))).toMatch(/ tsk_\S+… +\S+Z +- +active +bob$/);
      expect(listed.stdout).not.toContain(key);

      const revoked = await runScriptToEnd(CLI, ['revoke', id], { DATA_DIR: dataDir });
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toMatch(new RegExp(`^Revoked ${id} in the running service .*: it stopped working at \\S+Z\\.$`, 'm'));
      expect(await statusWithKey(service.url, key)).toBe(401);
      const again = await runScriptToEnd(CLI, ['revoke', id], { DATA_DIR: dataDir });
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`^${id} was already revoked: it stopped working at \\S+Z\\. Nothing changed\\.$`, 'm'));
      const unknown = await runScriptToEnd(CLI, ['revoke', 'key_0000'], { DATA_DIR: dataDir });
      expect(unknown.code).toBe(3);
      expect(unknown.stderr).toContain('apikey: No API key has the id key_0000.');
    });

    it('should refuse a second service on the same embedded database with a message saying what to do', async () => {
      // The refusal is the second service's last log line (LOG_LEVEL error: spawned services are silent by default).
      await expect(spawnService({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }, 20_000)).rejects.toThrow(
        /in use by the service running as process \d+/,
      );
    });
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

    it('should refuse an empty database, say when there are no keys, show a reissued key in its grace period, and create in PostgreSQL', async () => {
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
      const name = new URL(database.url).pathname.slice(1);
      const where = `PostgreSQL database "${name}" on 127.0.0.1:5432`;
      const refused = await runScriptToEnd(CLI, ['list'], env);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain(`apikey: no service database in ${where}`);
      expect(refused.stderr).toContain('Set DATABASE_URL to what the service uses');

      const opened = await openDatabase({ databaseUrl: database.url }); // the service's tables, as a first start makes them
      try {
        expect((await runScriptToEnd(CLI, ['list'], env)).stdout).toBe(
          `No API keys in ${where}. Make one with \`npm run apikey -- create --label NAME\`.\n`,
        );
        const now = new Date();
        await reissueUserApiKey(opened.db, { owner: 'telegram:7', label: 'bot', graceSeconds: 0, now });
        await reissueUserApiKey(opened.db, { owner: 'telegram:7', label: 'bot', graceSeconds: 300, now });
      } finally {
        await opened.close();
      }
      const listed = (await runScriptToEnd(CLI, ['list'], env)).stdout.trim().split('\n');
      expect(listed[0]).toBe(`API keys in ${where}:`);
      expect(listed.filter((row) => / telegram:7 +stops working at \S+Z +bot$/.test(row))).toHaveLength(1);
      expect(listed.filter((row) => / telegram:7 +active +bot$/.test(row))).toHaveLength(1);
      const graced = listed.find((row) => row.includes('stops working at'))!.split(' ')[0]!;
      const revoked = await runScriptToEnd(CLI, ['revoke', graced], env);
      expect(revoked.stdout).toContain(`Revoked ${graced} in ${where}`); // brought forward from its grace period
      expect((await runScriptToEnd(CLI, ['list'], env)).stdout).toMatch(new RegExp(`^${graced} .* revoked at \\S+Z +bot$`, 'm'));

      const created = await runScriptToEnd(CLI, ['create', '--label', 'carol'], env);
      expect(created.code).toBe(0);
      expect(created.stdout).toContain(`(label "carol") in ${where}.`);
      expect(lastLine(created.stdout)).toMatch(/^tsk_/);
    });
  });
});
