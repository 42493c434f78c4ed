import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { tieChildToParent } from '../../../../platform/work/tie-child-to-parent.ts';
import { overLimitError, type UnpackLimits } from './check-unpacked-tree.ts';

/** Bytes of one tar record: `-b 20` blocks of 512 bytes (GNU tar's default, given explicitly). */
const RECORD_BYTES = 20 * 512;
/** Records between two checkpoints: tar reports every 1 MiB of the unpacked stream it has read. */
const CHECKPOINT_RECORDS = 100;
/** Bytes of a tar stream that are not file data: a 512-byte header and up to 511 bytes of padding per entry. */
const OVERHEAD_PER_ENTRY = 1024;

/**
 * Unpacks a .tar.bz2 with Debian's GNU tar (bzip2 needed) into the new folder `into`, watching it
 * as it goes: `--checkpoint` makes tar say every 1 MiB of the decompressed tar stream it has read,
 * and `-v` names every entry, so an archive bomb is stopped (tar killed) as soon as the stream
 * passes `limits.maxBytes` (plus 1 KiB per allowed entry of header and padding) or the entries
 * pass `limits.maxEntries`, before it fills the disk. GNU tar itself drops leading `/` and `..`
 * from member names and never writes through a symbolic link it unpacked (such links are made
 * last); the links themselves are checked afterwards (check-unpacked-tree.ts).
 * @param archive the .tar.bz2 file; `what` names it in messages (its URL).
 * @param timeoutMs milliseconds for the whole unpack.
 * @throws AppError `engine_unavailable`: over a limit (overLimitError); `Unpacking the archive
 *   failed (needs \`tar\` and \`bzip2\`): <tar's last lines>; nothing was installed`; a timeout;
 *   `signal.reason` when aborted.
 */
export async function extractTarBz2(archive: string, into: string, what: string, options: { timeoutMs: number; limits: UnpackLimits; signal?: AbortSignal }): Promise<void> {
  const { limits, signal } = options;
  signal?.throwIfAborted();
  await mkdir(into);
  const maxStreamBytes = limits.maxBytes + limits.maxEntries * OVERHEAD_PER_ENTRY + CHECKPOINT_RECORDS * RECORD_BYTES;
  // Tied to this process (setpriv --pdeathsig; it execs tar, so the pid is tar's): a models CLI or a
  // first-start install killed mid-unpack leaves no tar behind.
  const tar = tieChildToParent('tar', [
    '-xvjf', archive, '-C', into, '--no-same-owner', '--no-same-permissions', '-b', '20',
    `--checkpoint=${CHECKPOINT_RECORDS}`, '--checkpoint-action=echo=%u',
  ]);
  const child = spawn(tar.command, tar.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let refusal: AppError | null = null;
  let entries = 0;
  const errors: string[] = [];
  const stop = (error: AppError) => {
    refusal ??= error;
    child.kill('SIGKILL');
  };
  createInterface({ input: child.stdout }).on('line', () => {
    entries += 1;
    if (entries > limits.maxEntries) stop(overLimitError(what, 'entries', `more than ${limits.maxEntries} entries`, limits));
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    // tar names itself as it was started: `tar:`, or `/usr/bin/tar:` through setpriv.
    const checkpoint = /^(?:\S*\/)?tar: (\d+)$/.exec(line);
    if (!checkpoint) {
      errors.push(line);
      if (errors.length > 3) errors.shift();
      return;
    }
    if (Number(checkpoint[1]) * CHECKPOINT_RECORDS * RECORD_BYTES > maxStreamBytes)
      stop(overLimitError(what, 'bytes', `more than ${limits.maxBytes} bytes`, limits));
  });
  const timer = setTimeout(() => stop(new AppError('engine_unavailable', `Unpacking ${what} took longer than ${Math.round(options.timeoutMs / 1000)} s; nothing was installed`)), options.timeoutMs);
  const onAbort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await new Promise<{ code: number | null; error: Error | null }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code, error: null }));
    });
    signal?.throwIfAborted();
    if (refusal) throw refusal;
    if (exit.code === 0) return;
    const detail = exit.error?.message ?? (errors.join(' ').trim() || `tar exited with code ${exit.code}`);
    throw new AppError('engine_unavailable', `Unpacking the archive failed (needs \`tar\` and \`bzip2\`): ${detail}; nothing was installed`, { cause: exit.error ?? undefined });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
