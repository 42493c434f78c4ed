import { createOutboundFetch } from '../../../../platform/http/create-outbound-fetch.ts';

/** What probeReleaseHost found. */
export type ReleaseHostProbe = { reachable: true; status: number } | { reachable: false; reason: string };

/**
 * Asks `url` for its headers (HEAD, redirects followed) within `timeoutMs`, to learn quickly whether
 * a download can start at all: any HTTP answer, even an error status, means the host is reachable
 * (the download then reports the status itself); a refused connection, a DNS failure or silence
 * until the timeout means it is not. Used on first start so that a machine without internet goes
 * on at once instead of waiting for the download's retries. Goes through the outbound agent
 * (platform/http), unchecked like the download: the release host is the operator's choice.
 * @param timeoutMs milliseconds (the first start uses 5000).
 * @returns never throws; `reason` is one line such as `no answer within 5 s` or `getaddrinfo ENOTFOUND github.com`.
 */
export async function probeReleaseHost(url: string, timeoutMs: number): Promise<ReleaseHostProbe> {
  try {
    const response = await createOutboundFetch()(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { reachable: true, status: response.status };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return { reachable: false, reason: `no answer within ${timeoutMs / 1000} s` };
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
    return { reachable: false, reason: cause ?? (error as Error).message };
  }
}
