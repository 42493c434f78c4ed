import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFramedServer } from '@transcribe/core/testing';
import type { FramedServer, ResponseFraming } from '@transcribe/core/testing';
import {
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  getPrediction,
  isSettled,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { freePort, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

// 50 links through `npm start` from the hosts that crashed it when its outbound HTTP was undici:
// python's http.server (HTTP/1.0, closes after the body), hosts that send `Connection: close` and a
// FIN right after the body, bodies delimited by the end of the connection, and bodies cut short.
// The one process serves them all and every prediction ends (docs/reliability.md, "Outbound HTTP client").

/** python3 -m http.server over the shared audio, as a user would serve a recording. */
async function startPythonHttpServer(root: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
    const up = await fetch(`${url}/jfk.wav`, { method: 'HEAD' }).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) return { url, child };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('python3 -m http.server did not start');
  }
}

describe('npm start against link hosts that close the connection right after the body', () => {
  let service: SpawnedService;
  let python: { url: string; child: ChildProcess };
  const framed = new Map<ResponseFraming, FramedServer>();
  let dataDir: string;

  beforeAll(async () => {
    const wav = await readFile(join(AUDIO_DIR, 'jfk.wav'));
    for (const framing of ['http1.0', 'close', 'eof', 'cut'] as const) {
      framed.set(framing, await startFramedServer(framing, () => ({ headers: { 'content-type': 'audio/wav' }, body: wav })));
    }
    python = await startPythonHttpServer(AUDIO_DIR);
    dataDir = await mkdtemp(join(tmpdir(), 'closing-links-'));
    service = await spawnService(fakeEngineEnv(dataDir, null), SPAWN_TIMEOUT_MS);
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    python?.child.kill('SIGKILL');
    for (const server of framed.values()) await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should end all 50 predictions in one process: 45 transcribed, the 5 cut short failed in plain words',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const key = await createKeyFor(fakeEngineEnv(dataDir, null));
      const hosts = [python.url, framed.get('http1.0')!.url, framed.get('close')!.url, framed.get('eof')!.url];
      const links: { audio: string; cut: boolean }[] = [];
      // A distinct query string per link, so that no link is a same-link repeat (spec 2.6).
      for (let i = 0; i < 45; i += 1) links.push({ audio: `${hosts[i % hosts.length]}/jfk.wav?n=${i}`, cut: false });
      for (let i = 0; i < 5; i += 1) links.push({ audio: `${framed.get('cut')!.url}/jfk.wav?n=${i}`, cut: true });
      const ids = await Promise.all(links.map((link) => createLinkPrediction(service.url, key, { input: { audio: link.audio } })));

      const ended = new Map<string, Record<string, unknown>>();
      const deadline = Date.now() + MULTI_PROCESS_TEST_TIMEOUT_MS - 60_000;
      while (ended.size < ids.length) {
        expect(service.child.exitCode, service.output()).toBeNull();
        for (const id of ids.filter((each) => !ended.has(each))) {
          const prediction = await getPrediction(service.url, key, id).catch((error: unknown) => {
            const how = `exit code ${service.child.exitCode}, signal ${service.child.signalCode}`;
            throw new Error(`the service process is gone (${how}); its last output:\n${service.output().slice(-3000)}`, { cause: error });
          });
          if (isSettled(prediction)) ended.set(id, prediction);
        }
        if (Date.now() > deadline) throw new Error(`${ids.length - ended.size} predictions never ended`);
        await sleep(250);
      }

      expect(service.child.exitCode).toBeNull();
      expect(service.child.signalCode).toBeNull();
      links.forEach((link, i) => {
        const prediction = ended.get(ids[i]!)!;
        if (link.cut) {
          expect(prediction).toMatchObject({ status: 'failed', error_code: 'upstream_unreachable' });
          expect(String(prediction.error)).toMatch(/failed before the recording was fully received/);
        } else {
          expect(prediction.status, `${link.audio}: ${String(prediction.error)}`).toBe('succeeded');
        }
      });
      // /health still answers from the same process.
      expect((await fetch(`${service.url}/health`)).ok).toBe(true);
    },
  );
});
