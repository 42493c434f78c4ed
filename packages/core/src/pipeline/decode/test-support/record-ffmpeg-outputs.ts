import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A WAV file ffmpeg wrote, measured as ffmpeg exited (before the service could remove it). */
export interface FfmpegOutput {
  path: string;
  bytes: number;
}

/**
 * Writes `<dir>/ffmpeg-recorder.sh`, a stand-in for ffmpeg (use it as FFMPEG_PATH) that runs the real
 * ffmpeg and, when it exits, appends the size of every `file:….wav` argument it was given to
 * `<dir>/ffmpeg-outputs.log`: the bytes a decode really put on disk, however briefly.
 * @param options.virtualMemoryKb runs ffmpeg under `ulimit -v` this many KiB: an allocation past it fails
 *   (ffmpeg then says "Cannot allocate memory" and the decode fails).
 * @returns the script's path and a reader of the sizes logged so far.
 */
export async function recordFfmpegOutputs(
  dir: string,
  options: { virtualMemoryKb?: number } = {},
): Promise<{ script: string; outputs: () => Promise<FfmpegOutput[]> }> {
  const ffmpeg = execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim();
  const log = path.join(dir, 'ffmpeg-outputs.log');
  const script = path.join(dir, 'ffmpeg-recorder.sh');
  await writeFile(
    script,
    [
      '#!/bin/sh',
      ...(options.virtualMemoryKb ? [`ulimit -v ${options.virtualMemoryKb}`] : []),
      `'${ffmpeg}' "$@"`,
      'code=$?',
      'for arg in "$@"; do',
      '  case "$arg" in',
      `    file:*.wav) f="\${arg#file:}"; [ -f "$f" ] && echo "$(stat -c %s "$f") $f" >> '${log}' ;;`,
      '  esac',
      'done',
      'exit $code',
      '',
    ].join('\n'),
  );
  await chmod(script, 0o755);
  const outputs = async () => {
    const text = await readFile(log, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const space = line.indexOf(' ');
        return { bytes: Number(line.slice(0, space)), path: line.slice(space + 1) };
      });
  };
  return { script, outputs };
}
