import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createLinkPrediction,
  fakeEngineEnv,
  isSettled,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { runScriptToEnd, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** Every row of every table of the service's database as JSON text (application tables and the queue). */
async function dumpDatabase(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ schema: string; name: string }[]>`
      SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss', 'drizzle') AND table_type = 'BASE TABLE'`;
    const parts: string[] = [];
    for (const table of tables) {
      const rows = await sql.unsafe(`SELECT row_to_json(t)::text AS json FROM "${table.schema}"."${table.name}" t`);
      parts.push(...rows.map((row) => String(row.json)));
    }
    return parts.join('\n');
  } finally {
    await sql.end();
  }
}

describe('API key security (spec 5)', () => {
  let dataDir: string;
  let database: TestDatabase;
  let files: FileServer;
  let service: SpawnedService | null = null;
  let env: Record<string, string>;
  const cliOutput: string[] = [];

  const cli = async (...args: string[]) => {
    const run = await runScriptToEnd('apps/api/src/cli/apikey.ts', args, env);
    cliOutput.push(run.stdout, run.stderr);
    return run;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'key-security-'));
    database = await createTestDatabase();
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
    env = fakeEngineEnv(dataDir, database.url);
    service = await spawnService({ ...env, LOG_LEVEL: 'info' }, SPAWN_TIMEOUT_MS); // its logs are searched for the key below
  }, SPAWN_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await files?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should make random 256-bit keys, store only their SHA-256 and show each key once',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const made = await Promise.all([cli('create', '--label', 'one'), cli('create', '--label', 'two')]);
      const [one, two] = made.map((run) => run.stdout.trim().split('\n').at(-1)!);
      for (const secret of [one!, two!]) {
        expect(secret).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/); // 32 random bytes in base64url
        expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
      }
      expect(one).not.toBe(two);
      const dump = await dumpDatabase(database.url);
      expect(dump).not.toContain(one);
      expect(dump).not.toContain(two);
      expect(dump).toContain(createHash('sha256').update(one!).digest('hex'));
      const listed = await cli('list');
      expect(listed.stdout).not.toContain(one);
      expect(listed.stdout).toMatch(/tsk_\w{6}…/); // a prefix to tell keys apart, never the rest
    },
  );

  it('should never write a key to the logs, whatever the requests do', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    const secret = (await cli('create', '--label', 'logged')).stdout.trim().split('\n').at(-1)!;
    const wrong = `tsk_${'A'.repeat(43)}`;
    const base = `${service!.url}/v1/replicate/v1`;
    const ok = await createLinkPrediction(service!.url, secret, { input: { audio: `${files.url}/1089-134686-0001.wav` } });
    const bad = await createLinkPrediction(service!.url, secret, { input: { audio: `${files.url}/missing.wav` } });
    for (const id of [ok, bad]) await waitForPrediction(service!.url, secret, id, isSettled, 60_000);
    const attempts: [string, RequestInit][] = [
      [`${base}/predictions`, { headers: { authorization: `Bearer ${wrong}` } }],
      [`${base}/predictions`, { headers: { authorization: `Token ${secret}` } }],
      [`${base}/predictions/${ok}`, { headers: { authorization: `Bearer ${secret}` } }],
      [`${base}/predictions?key=${secret}`, { headers: { authorization: `Bearer ${wrong}` } }],
      [
        `${base}/predictions`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: `{"input": {"audio": "${secret}"}}`,
        },
      ],
      [
        `${base}/predictions`,
        { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{not json' },
      ],
      [
        `${base}/models/service/transcribe/predictions`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'multipart/form-data; boundary=b' },
          body: '--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--\r\n',
        },
      ],
    ];
    for (const [url, init] of attempts) expect((await fetch(url, init)).status).toBeLessThan(500);
    const revoked = await cli(
      'revoke',
      (await cli('list')).stdout
        .split('\n')
        .find((line) => line.includes('logged'))!
        .split(/\s+/)[0]!,
    );
    expect(revoked.code).toBe(0);
    expect((await fetch(`${base}/predictions`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401); // revoked at once
    const logs = service!.output();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(secret.slice(4));
    expect(logs).not.toContain(wrong);
    expect(cliOutput.join('\n').split(secret).length - 1).toBe(1); // printed once, by `create`
  });
});
