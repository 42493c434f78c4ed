import cliProgress from 'cli-progress';

/** `12.3 MB`, from bytes (10^6 bytes per MB). */
export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `12.3 MB/s`, from bytes and seconds. */
const rate = (bytes: number, seconds: number) => `${megabytes(seconds > 0 ? bytes / seconds : 0)}/s`;

/**
 * Progress of a download: a cli-progress bar (bytes, rate, ETA) when stdout is a terminal, else one
 * line per 10 % (per 10 MB when the size is unknown), each prefixed with `prefix`.
 */
export function progressReporter(name: string, prefix: string, tty: boolean) {
  let bar: cliProgress.SingleBar | null = null;
  let started = 0;
  let startBytes = 0;
  let reported = -1;
  const payload = (received: number, total: number | null) => {
    const seconds = (performance.now() - started) / 1000;
    return { done: megabytes(received), size: total ? megabytes(total) : '?', rate: rate(received - startBytes, seconds) };
  };
  return {
    onProgress(received: number, total: number | null) {
      if (started === 0) {
        started = performance.now();
        startBytes = received;
        if (received > 0) console.log(`${prefix}resuming ${name} at ${megabytes(received)}`);
      }
      if (tty && total) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              format: `${name} [{bar}] {percentage}% | {done} of {size} | {rate} | ETA {eta_formatted}`,
              hideCursor: true,
              etaBuffer: 50,
              fps: 5,
              stream: process.stdout,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, received, payload(received, total));
        }
        bar.update(received, payload(received, total));
        return;
      }
      const step = total ? Math.floor((received / total) * 10) : Math.floor(received / 1e7);
      if (step <= reported) return;
      reported = step;
      const { rate: speed } = payload(received, total);
      console.log(
        total
          ? `${prefix}downloading ${name}: ${step * 10}% (${megabytes(received)} of ${megabytes(total)}, ${speed})`
          : `${prefix}downloading ${name}: ${megabytes(received)} (${speed})`,
      );
    },
    stop() {
      bar?.stop();
      bar = null;
    },
    /** After a cut: the next progress call starts a new rate measurement and says where it resumes. */
    restart() {
      this.stop();
      started = 0;
      reported = -1;
    },
  };
}
