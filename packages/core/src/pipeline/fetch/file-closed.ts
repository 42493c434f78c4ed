import type { WriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Resolves once `file` has closed its descriptor (at once if it already has). `fs.createWriteStream`
 * opens its file asynchronously, and a stream destroyed before that open still creates the file
 * when the open completes; a caller that removes the path on failure must wait for this first, or
 * the empty file appears after its cleanup (seen as a leftover upload once in a few test runs).
 * The stream must be ended or destroyed, or this waits until it is.
 */
export async function fileClosed(file: WriteStream): Promise<void> {
  if (file.closed) return;
  await once(file, 'close').catch(() => undefined);
}
