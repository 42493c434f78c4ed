import { fork, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { tieChildToParent } from './tie-child-to-parent.ts';

/**
 * Runs the CommonJS `script` in a new plain `node` process (this process's Node, no loader and no
 * `execArgv`) with an IPC channel, like `child_process.fork`, but tied to this process: the kernel
 * kills it (SIGKILL) when this process dies, however it dies (tie-child-to-parent.ts). That matters
 * for children that spend their time in one synchronous native call (sherpa-onnx decoding or
 * diarizing a whole recording): their event loop never turns, so they could not notice a lost
 * parent themselves. It is `spawn` of `setpriv --pdeathsig SIGKILL -- node script` with an `'ipc'`
 * entry in `stdio` (Node gives any child with one the channel `fork` gives, `process.send` included);
 * without `setpriv` it is a plain `fork`, and such a child ends only when its work does.
 * Call it from the main thread only (a child is tied to the thread that started it).
 * @param options.stdio as for `fork`: must hold exactly one `'ipc'`.
 * @param options.serialization the IPC serialization (`json`, the default, or `advanced`).
 * @returns the child; listen for `error` (it may fail to start).
 */
export function forkNodeChild(script: string, options: { stdio: StdioOptions; serialization?: 'json' | 'advanced' }): ChildProcess {
  const launch = tieChildToParent(process.execPath, [script]);
  const common = { stdio: options.stdio, ...(options.serialization ? { serialization: options.serialization } : {}) };
  if (!launch.tied) return fork(script, [], { ...common, execArgv: [] });
  return spawn(launch.command, launch.args, common);
}
