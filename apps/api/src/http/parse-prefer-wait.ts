/** Longest hold of a `Prefer: wait` request, in seconds (replicate-compat.md 5). */
export const MAX_WAIT_SECONDS = 60;

/**
 * Reads `Prefer: wait` / `Prefer: wait=N` (N = 1..60) and returns the hold time in ms, or null when
 * the client did not ask to wait. Out-of-range or malformed values fall back to 60 s, as a `Prefer`
 * preference may be honoured loosely (RFC 7240).
 */
export function parsePreferWait(header: string | undefined): number | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /^\s*wait(?:\s*=\s*"?(\d+)"?)?\s*$/i.exec(part);
    if (!match) continue;
    const seconds = match[1] === undefined ? MAX_WAIT_SECONDS : Number(match[1]);
    return (seconds >= 1 && seconds <= MAX_WAIT_SECONDS ? seconds : MAX_WAIT_SECONDS) * 1000;
  }
  return null;
}
