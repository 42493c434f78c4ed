import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import { AppError, type ServiceContext } from '@transcribe/core';
import { formFieldsToInput } from '../http/form-fields-to-input.ts';
import type { ReceivedFile } from '../http/receive-raw-body.ts';
import { receiveForm } from '../http/receive-form.ts';

/** The portal's transcribe form, read: the input, the saved file (if any), and the form's CSRF field. */
export interface PortalUpload {
  rawInput: Record<string, unknown>;
  upload: ReceivedFile | null;
  csrf: string | undefined;
}

/**
 * Reads the transcribe form (multipart/form-data) with the API's streaming form reader: the file
 * part `input.audio` goes to DATA_DIR/uploads on disk; `link` is a pasted link; other `input.<name>`
 * parts are parameters (spec 2.2), empty ones left out (an unselected option means the default).
 * @throws AppError `invalid_input` (422) for a file and a link together, or neither;
 *   `payload_too_large` (413) over the limit (spec 8); `unsupported_media_type` (415).
 */
export async function readPortalUpload(ctx: ServiceContext, req: Request): Promise<PortalUpload> {
  if (!(req.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError('unsupported_media_type', 'Send the transcribe form as multipart/form-data.');
  }
  const form = await receiveForm(req, {
    fileField: 'input.audio',
    dir: join(ctx.config.dataDir, 'uploads'),
    maxBytes: ctx.config.maxMediaBytes,
  });
  let upload = form.file;
  try {
    if (upload && upload.bytes === 0) {
      await rm(upload.path, { force: true }); // a file field left empty
      upload = null;
    }
    const link = form.fields.find(([name]) => name === 'link')?.[1].trim() ?? '';
    if (upload && link) throw new AppError('invalid_input', 'Choose a file or paste a link, not both.', { param: 'audio' });
    if (!upload && !link) throw new AppError('invalid_input', 'Choose a recording file or paste a link to one.', { param: 'audio' });
    const rawInput = formFieldsToInput(
      form.fields.filter(([name, value]) => name !== 'input.audio' && !(name.startsWith('input.') && value.trim() === '')),
    );
    if (link) rawInput.audio = link;
    return { rawInput, upload, csrf: form.fields.find(([name]) => name === 'csrf')?.[1] };
  } catch (error) {
    if (upload) await rm(upload.path, { force: true });
    throw error;
  }
}
