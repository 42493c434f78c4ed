/**
 * Keeps a service or worker process alive when a background promise rejects unobserved, logging it
 * instead. pg-boss 10 calls `complete`/`fail` of a finished job without
 * awaiting them (manager.js `onFetch`), so a database that goes away at that moment would otherwise
 * end the whole process through Node's default `--unhandled-rejections=throw`. Nothing is lost by
 * continuing: a job whose completion was not recorded is retried through its lease or its expiry
 * (docs/reliability.md). Call once, from an entry point only (never from tests or libraries).
 */
export function logStrayRejections(processName: string): void {
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message.split('\n')[0] : String(reason);
    console.error(`[${processName}] a background operation failed and was left to its retry: ${message}`);
  });
}
