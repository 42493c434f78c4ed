import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What one ffmpeg run put out, measured as it exited (before the service could remove anything): a WAV
 * file it wrote, or (`path` `pipe:1`) the bytes of raw PCM it sent down the pipe, which is what the
 * decoder writes to disk at most (decode/run-pcm-decode.ts: all of it without `cutSilences`).
 */
export interface FfmpegOutput {
  path: string;
  bytes: number;
}

/**
 * Writes `<dir>/ffmpeg-recorder.sh`, a stand-in for ffmpeg (use it as FFMPEG_PATH) that runs the real
 * ffmpeg and, when it exits, appends to `<dir>/ffmpeg-outputs.log` the size of every `file:….wav`
 * argument it was given and, when its output is `pipe:1`, the bytes it wrote there (`tee` copies them
 * on their way through to a FIFO that `wc -c` counts): the bytes a decode really put out, however briefly they were kept.
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
      'piped=0',
      'for arg in "$@"; do [ "$arg" = pipe:1 ] && piped=1; done',
      'if [ $piped = 1 ]; then',
      '  scratch=$(mktemp -d); mkfifo "$scratch/copy"', // tee copies the pipe to a FIFO that wc counts
      '  wc -c < "$scratch/copy" > "$scratch/count" &',
      `  { '${ffmpeg}' "$@"; echo $? > "$scratch/status"; } | tee "$scratch/copy"`,
      '  wait',
      '  code=$(cat "$scratch/status")',
      `  echo "$(cat "$scratch/count") pipe:1" >> '${log}'`,
      '  rm -rf "$scratch"',
      'else',
      `  '${ffmpeg}' "$@"`,
      '  code=$?',
      'fi',
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
