import { open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { Router } from 'express';
import { AppError, createFile, deleteFile, findFile, listFiles, toPublicFile, type ServiceContext } from '@transcribe/core';
import { contentTypeOf } from '../http/read-create-request.ts';
import { receiveForm, type ReceivedForm } from '../http/receive-form.ts';

/**
 * Replicate's files API (replicate-compat.md 3 and 10.7), used by the JS clients for Buffer/Blob
 * inputs and by Python ≥ 0.32: upload (multipart part `content` + optional JSON `metadata`), get,
 * list, download, delete. Files belong to their key and expire after 24 hours; their `urls.get`
 * is accepted as `input.audio`.
 */
export function fileRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post('/files', async (req, res) => {
    if (contentTypeOf(req) !== 'multipart/form-data') {
      throw new AppError(
        'unsupported_media_type',
        'Upload a file as multipart/form-data with the file in a part named content (and optional JSON metadata).',
      );
    }
    const form = await receiveForm(req, {
      fileField: 'content',
      dir: join(ctx.config.dataDir, 'uploads'),
      maxBytes: ctx.config.maxMediaBytes,
    });
    const file = form.file;
    try {
      if (!file)
        throw new AppError('invalid_input', 'The form has no file: put it in a part named content with a filename.', { param: 'content' });
      const row = await createFile(ctx, {
        apiKeyId: res.locals.apiKey.id,
        tempPath: file.path,
        bytes: file.bytes,
        sha256: file.sha256,
        name: file.name,
        contentType: file.contentType,
        metadata: readMetadata(form),
      });
      res.status(201).json(toPublicFile(row, ctx.config.apiBaseUrl));
    } catch (error) {
      if (file) await rm(file.path, { force: true });
      throw error;
    }
  });

  router.get('/files', async (req, res) => {
    const page = await listFiles(ctx.database.db, res.locals.apiKey.id, req.query.cursor);
    const link = (cursor: string | null) => (cursor ? `${ctx.config.apiBaseUrl}/files?cursor=${cursor}` : null);
    res.json({
      results: page.rows.map((row) => toPublicFile(row, ctx.config.apiBaseUrl)),
      next: link(page.next),
      previous: link(page.previous),
    });
  });

  router.get('/files/:id', async (req, res) => {
    const row = await findFile(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    res.json(toPublicFile(row, ctx.config.apiBaseUrl));
  });

  router.get('/files/:id/download', async (req, res) => {
    const row = await findFile(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    const handle = await open(row.path).catch((error: unknown) => {
      throw new AppError('not_found', `The content of file ${row.id} is no longer stored.`, { cause: error });
    });
    res.set({ 'content-type': row.contentType, 'content-length': String(row.size) });
    res.attachment(row.name);
    await pipeline(handle.createReadStream(), res).catch(() => res.destroy());
  });

  router.delete('/files/:id', async (req, res) => {
    await deleteFile(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    res.status(204).end();
  });

  return router;
}

/** The `metadata` part: a JSON object, `{}` when absent (the JS client sends it as a blob). */
function readMetadata(form: ReceivedForm): Record<string, unknown> {
  const text = form.fields.findLast(([name]) => name === 'metadata')?.[1];
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid_input', 'metadata must be a JSON object, for example {"purpose": "interview"}.', { param: 'metadata' });
  }
  return value as Record<string, unknown>;
}
