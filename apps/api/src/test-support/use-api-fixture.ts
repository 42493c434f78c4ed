import { afterAll, beforeAll } from 'vitest';
import { pollPrediction } from './poll-prediction.ts';
import { serveFiles, type FileServer } from './serve-files.ts';
import { AUDIO_DIR } from './shared-paths.ts';
import { startTestService, type TestDatabaseKind, type TestService } from './start-test-service.ts';

/** A running service and a file server for ../shared/audio, set up once per `describe`. */
export interface ApiFixture {
  t: TestService;
  files: FileServer;
  /** POST …/v1/models/service/transcribe/predictions with `{input}` as JSON. */
  create(input: Record<string, unknown>, key?: string): Promise<Response>;
  /** Creates a prediction (expecting 201) and polls it to a terminal status. */
  run(input: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
}

/**
 * Registers beforeAll/afterAll hooks that start the real service (PGlite or PostgreSQL, with `env`)
 * and a local file server, and returns the fixture, filled in once the hooks ran.
 */
export function useApiFixture(kind: TestDatabaseKind = 'pglite', env: Record<string, string> = {}): ApiFixture {
  const fixture = {} as ApiFixture;
  fixture.create = (input, key = fixture.t.key) =>
    fetch(`${fixture.t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
  fixture.run = async (input, key = fixture.t.key) => {
    const response = await fixture.create(input, key);
    if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
    const created = (await response.json()) as { id: string };
    return pollPrediction(fixture.t.replicateBase, key, created.id);
  };
  beforeAll(async () => {
    fixture.t = await startTestService(kind, env);
    fixture.files = await serveFiles(AUDIO_DIR);
  });
  afterAll(async () => {
    await fixture.files?.close();
    await fixture.t?.stop();
  });
  return fixture;
}
