import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followLoginLink, PortalClient } from '../portal/portal-test-client.ts';
import { runScriptToEnd, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const CLI = 'apps/api/src/cli/portal.ts';

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

/** Signs in with `link` on the service at `url`; returns the home page's text (or throws). */
async function signInAt(url: string, link: string): Promise<string> {
  const client = new PortalClient(url);
  const answer = await followLoginLink(client, link.replace(/^https?:\/\/[^/]+/, url));
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  return (await client.request('/portal')).text();
}

describe('npm run portal -- login-link', () => {
  let dataDir: string;
  let service: SpawnedService | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
  });

  afterAll(async () => {
    await service?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should write a link to the embedded database while no service runs, and reach the running service later', async () => {
    const offline = await runScriptToEnd(CLI, ['login-link', '--account', 'ana'], { DATA_DIR: dataDir, PORT: '8080' });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('One-time sign-in link for ana, valid until');
    expect(offline.stdout).toContain('start it with "npm start"');
    const offlineLink = lastLine(offline.stdout);
    expect(offlineLink).toMatch(/^http:\/\/localhost:8080\/portal\/login\?token=[A-Za-z0-9_-]{43}$/);

    service = await spawnService({ DATA_DIR: dataDir, WORKER_CONCURRENCY: '0' });
    expect(await signInAt(service.url, offlineLink)).toContain('Signed in as <strong>ana</strong>');

    const online = await runScriptToEnd(CLI, ['login-link', '--telegram', '4242'], { DATA_DIR: dataDir });
    expect(online.code).toBe(0);
    expect(online.stdout).not.toContain('npm start');
    const onlineLink = lastLine(online.stdout);
    expect(onlineLink).toContain(`:${new URL(service.url).port}/portal/login?token=`);
    expect(await signInAt(service.url, onlineLink)).toContain('Signed in as <strong>Telegram user 4242</strong>');
  });

  it('should refuse a bad account name in words with the usage exit code (2)', async () => {
    const result = await runScriptToEnd(CLI, ['login-link', '--account', 'a b'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('portal: The account name may have 1 to 64 letters');
  });

  it('should print usage and exit 2 for an unknown command or both --account and --telegram', async () => {
    for (const args of [['explode'], ['login-link', '--account', 'a', '--telegram', '1']]) {
      const result = await runScriptToEnd(CLI, args, { DATA_DIR: dataDir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage');
    }
  });
});
