import { AppError, type AppErrorCode } from '../errors/app-error.ts';
import { forkNodeChild } from './fork-node-child.ts';

/** Bytes of a child's stderr kept for the error of a child that died (the end is what explains it). */
const STDERR_TAIL_BYTES = 4096;

/** What a one-shot child sends back: its result, or the error it caught. */
export type OneShotChildMessage<Done extends object> = ({ type: 'done' } & Done) | { type: 'error'; code: AppErrorCode; message: string };

/**
 * Runs a one-shot CommonJS child script (forkNodeChild: tied to this process, `advanced` IPC
 * serialization), for work done in one synchronous native call that may also abort its process
 * (sherpa-onnx diarization and speaker embeddings: a damaged model makes onnxruntime abort). Sends it
 * `request`, then settles once, on the first of: its message `{type: 'done', …}` (resolved with that
 * message), its message `{type: 'error', code, message}` (AppError `code`, "`{label}` failed: …"), an
 * exit before answering (AppError `engine_unavailable`, "`{label}` exited with code N" or "was killed by
 * SIG…", then `({closeHint})`, with the last 4 KiB of its stderr as `cause`), a failure to start
 * (`engine_unavailable`, "`{label}` could not start: …"), or `signal` aborting (its reason). The child
 * is killed (SIGKILL) once settled if it still runs.
 * @param label the work in words, e.g. `Speaker diarization`.
 * @param closeHint the likely cause of an unexpected exit, e.g. `damaged model files?`.
 * @returns the child's `done` message.
 * @throws the AppErrors above; `signal.reason` when aborted.
 */
export function runNodeChildOnce<Done extends object>(
  script: string,
  request: unknown,
  { label, closeHint }: { label: string; closeHint: string },
  signal?: AbortSignal,
): Promise<{ type: 'done' } & Done> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const child = forkNodeChild(script, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)));
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (message: OneShotChildMessage<Done>) => {
      if (message.type === 'done') finish(() => resolve(message));
      else finish(() => reject(new AppError(message.code, `${label} failed: ${message.message}`)));
    });
    child.on('error', (error) =>
      finish(() => reject(new AppError('engine_unavailable', `${label} could not start: ${error.message}`, { cause: error }))),
    );
    child.on('close', (code, killedBy) => {
      const how = killedBy === null ? `exited with code ${code}` : `was killed by ${killedBy}`;
      const cause = new Error(stderr.trim() || how);
      finish(() => reject(new AppError('engine_unavailable', `${label} ${how} (${closeHint})`, { cause })));
    });
    child.send(request as object);
  });
}
