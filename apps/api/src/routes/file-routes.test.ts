import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, files, predictions } from '@transcribe/core';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface FileObject {
  id: string;
  name: string;
  content_type: string;
  size: number;
  etag: string;
  checksums: { sha256: string };
  metadata: Record<string, unknown>;
  created_at: string;
  expires_at: string;
  urls: { get: string };
}

describe('the files API (replicate-compat.md 3, 10.7)', () => {
  let t: TestService;
  let clip: Buffer;
  const auth = (key = t.key) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0' });
    clip = await readFile(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'));
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** Uploads the way the JS client does: part `content` (Buffer blob) and part `metadata` (JSON blob). */
  async function upload(base = `${t.replicateBase}/v1`, key = t.key, metadata: unknown = {}): Promise<FileObject> {
    const form = new FormData();
    form.append('content', new Blob([clip], { type: 'application/octet-stream' }), 'buffer_1700000000000');
    form.append('metadata', new Blob([JSON.stringify(metadata)], { type: 'application/json' }));
    const response = await fetch(`${base}/files`, { method: 'POST', headers: auth(key), body: form });
    expect(response.status).toBe(201);
    return (await response.json()) as FileObject;
  }

  it('should store an upload and answer 201 with the File object the clients expect', async () => {
    const before = Date.now();
    const file = await upload(undefined, undefined, { purpose: 'interview' });
    expect(file).toEqual({
      id: expect.stringMatching(/^[a-z2-7]{26}$/),
      name: 'buffer_1700000000000',
      content_type: 'application/octet-stream',
      size: clip.length,
      etag: expect.any(String),
      checksums: { sha256: createHash('sha256').update(clip).digest('hex') },
      metadata: { purpose: 'interview' },
      created_at: expect.any(String),
      expires_at: expect.any(String),
      urls: { get: `${t.service.ctx.config.apiBaseUrl}/files/${file.id}` },
    });
    const lifetime = Date.parse(file.expires_at) - Date.parse(file.created_at);
    expect(lifetime).toBe(24 * 3600 * 1000);
    expect(Date.parse(file.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('should take the Python form: metadata as a text field and the guessed content type', async () => {
    const form = new FormData();
    form.append('content', new Blob([clip], { type: 'audio/wav' }), 'clip.wav');
    form.append('metadata', '{"a": 1}');
    const response = await fetch(`${t.replicateBase}/files`, { method: 'POST', headers: auth(), body: form });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'clip.wav', content_type: 'audio/wav', metadata: { a: 1 } });
  });

  it('should get, download, list and delete a file, with and without the inner /v1', async () => {
    const file = await upload();
    for (const base of [`${t.replicateBase}/v1`, t.replicateBase]) {
      const got = await fetch(`${base}/files/${file.id}`, { headers: { ...auth(), 'content-type': 'application/json' } });
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(file);
      const content = await fetch(`${base}/files/${file.id}/download`, { headers: auth() });
      expect(content.status).toBe(200);
      expect(Buffer.from(await content.arrayBuffer()).equals(clip)).toBe(true);
    }
    const list = (await (await fetch(`${t.replicateBase}/v1/files`, { headers: auth() })).json()) as {
      results: FileObject[];
      next: null;
      previous: null;
    };
    expect(list.results[0]).toEqual(file);
    expect(list.next).toBeNull();
    expect(list.previous).toBeNull();
    expect((await fetch(file.urls.get, { method: 'DELETE', headers: auth() })).status).toBe(204);
    expect((await fetch(file.urls.get, { headers: auth() })).status).toBe(404);
    expect((await fetch(file.urls.get, { method: 'DELETE', headers: auth() })).status).toBe(404);
  });

  it("should hide a key's files from another key with 404", async () => {
    const file = await upload();
    const other = await createApiKey(t.service.ctx.database.db, 'other');
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/download'],
      ['DELETE', ''],
    ]) {
      const response = await fetch(`${file.urls.get}${suffix}`, { method, headers: auth(other.secret) });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/No file with id/);
    }
    const list = (await (await fetch(`${t.replicateBase}/v1/files`, { headers: auth(other.secret) })).json()) as { results: unknown[] };
    expect(list.results).toEqual([]);
  });

  it('should forget an expired file, refuse it as audio and purge its content', async () => {
    const file = await upload();
    const db = t.service.ctx.database.db;
    const [row] = await db
      .update(files)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(files.id, file.id))
      .returning();
    expect((await fetch(file.urls.get, { headers: auth() })).status).toBe(404);
    const listed = (await (await fetch(`${t.replicateBase}/v1/files`, { headers: auth() })).json()) as { results: FileObject[] };
    expect(listed.results.map((entry) => entry.id)).not.toContain(file.id);
    const before = await db.$count(predictions);
    const create = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: file.urls.get } }),
    });
    expect(create.status).toBe(422);
    expect(((await create.json()) as { detail: string }).detail).toMatch(/has expired \(files are kept 24 hours\)/);
    expect(await db.$count(predictions)).toBe(before);
    await upload(); // each upload purges expired files
    await expect(access(String(row?.path))).rejects.toThrow();
    expect(await db.$count(files, eq(files.id, file.id))).toBe(0);
  });

  it('should page the list 100 at a time', async () => {
    const db = t.service.ctx.database.db;
    const lister = await createApiKey(db, 'file-lister');
    const now = Date.now();
    await db.insert(files).values(
      Array.from({ length: 150 }, (_, index) => ({
        id: `f${String(index).padStart(3, '0')}`.replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)] as string).padEnd(26, 'q'),
        apiKeyId: lister.id,
        name: `f${index}`,
        contentType: 'audio/wav',
        size: 1,
        sha256: '0'.repeat(64),
        metadata: {},
        path: '/nonexistent',
        createdAt: new Date(now - index * 1000),
        expiresAt: new Date(now + 3600_000),
      })),
    );
    const first = (await (await fetch(`${t.replicateBase}/v1/files`, { headers: auth(lister.secret) })).json()) as {
      results: FileObject[];
      next: string;
    };
    expect(first.results.map((file) => file.name).slice(0, 2)).toEqual(['f0', 'f1']);
    expect(first.next.startsWith(`${t.service.ctx.config.apiBaseUrl}/files?cursor=`)).toBe(true);
    const second = (await (await fetch(first.next, { headers: auth(lister.secret) })).json()) as { results: FileObject[]; next: null };
    expect(second.results.map((file) => file.name)).toEqual(Array.from({ length: 50 }, (_, index) => `f${index + 100}`));
    expect(second.next).toBeNull();
    const gone = await fetch(`${first.results[0]?.urls.get}/download`, { headers: auth(lister.secret) });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { detail: string }).detail).toMatch(/no longer stored/);
  });

  it.each([
    ['a JSON body', { 'content-type': 'application/json' }, () => '{}', 415, /multipart\/form-data with the file in a part named content/],
    ['a form without content', {}, () => formOf([['metadata', '{}']]), 422, /no file: put it in a part named content/],
    [
      'metadata that is a list',
      {},
      () =>
        formOf([
          ['content', new Blob([Buffer.alloc(8)]), 'a.wav'],
          ['metadata', '[1]'],
        ]),
      422,
      /metadata must be a JSON object/,
    ],
    [
      'metadata that is not JSON',
      {},
      () =>
        formOf([
          ['content', new Blob([Buffer.alloc(8)]), 'a.wav'],
          ['metadata', '{oops'],
        ]),
      422,
      /metadata must be a JSON object/,
    ],
  ] as [string, Record<string, string>, () => string | FormData, number, RegExp][])(
    'should refuse %s with a detail and store nothing',
    async (_name, headers, body, status, detail) => {
      const before = await t.service.ctx.database.db.$count(files);
      const response = await fetch(`${t.replicateBase}/v1/files`, { method: 'POST', headers: { ...auth(), ...headers }, body: body() });
      expect(response.status).toBe(status);
      expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
      expect(await t.service.ctx.database.db.$count(files)).toBe(before);
    },
  );
});

function formOf(entries: [string, string | Blob, string?][]): FormData {
  const form = new FormData();
  for (const [name, value, filename] of entries) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return form;
}
