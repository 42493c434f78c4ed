import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Replicate031 from 'replicate-0.31';
import Replicate14 from 'replicate-1.4';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { useApiFixture } from '../test-support/use-api-fixture.ts';

interface JsonOutput {
  source: { length: number; format: string };
  segments: { text: string }[];
  language: string;
}

/** The real npm clients, unchanged, against the service (replicate-compat.md 2 and 5). */
const CLIENTS = [
  { name: 'replicate 0.31.1', make: (auth: string, baseUrl: string) => new Replicate031({ auth, baseUrl }) },
  { name: 'replicate 1.4.0', make: (auth: string, baseUrl: string) => new Replicate14({ auth, baseUrl }) },
];

describe('the official npm replicate clients', () => {
  const api = useApiFixture('pglite');

  it.each(CLIENTS)('should return the transcript from $name run() with a link', async ({ make }) => {
    const client = make(api.t.key, `${api.t.replicateBase}/v1`);
    const output = (await client.run('service/transcribe', { input: { audio: `${api.files.url}/jfk.wav` } })) as JsonOutput;
    expect(output.source.format).toBe('wav');
    expect(output.language).toBe('en');
    expect(output.segments.map((s) => s.text).join(' ')).toMatch(/country/);
  });

  it.each(CLIENTS)('should return the transcript from $name run() with a data: URI and the raw base URL', async ({ make }) => {
    const bytes = await readFile(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'));
    // A JS user who sets the documented Python base as-is hits the routes without the inner /v1.
    const client = make(api.t.key, api.t.replicateBase);
    const output = (await client.run('service/transcribe', {
      input: { audio: `data:audio/wav;base64,${bytes.toString('base64')}`, output_format: 'text' },
    })) as string;
    expect(typeof output).toBe('string');
    expect(output.length).toBeGreaterThan(0);
  });

  it.each(CLIENTS)('should make $name run() throw with the error text of a failed prediction', async ({ make }) => {
    const client = make(api.t.key, `${api.t.replicateBase}/v1`);
    await expect(client.run('service/transcribe', { input: { audio: `${api.files.url}/jfk.txt` } })).rejects.toThrow(
      /not a recording|read/i,
    );
  });

  it.each(CLIENTS)('should make $name report a 422 detail for a missing audio', async ({ make }) => {
    const client = make(api.t.key, `${api.t.replicateBase}/v1`);
    await expect(client.run('service/transcribe', { input: {} })).rejects.toThrow(/422[\s\S]*audio/);
  });
});
