import { createHash, timingSafeEqual } from 'node:crypto';

/** What a `/metrics` request without the right token gets: status, headers and a plain-text body. */
export interface MetricsRefusal {
  status: 401;
  headers: Record<string, string>;
  body: string;
}

/**
 * Checks a `/metrics` request's `Authorization` header against METRICS_TOKEN. Without a token the
 * endpoint is open, as Prometheus expects of a scrape target on a private network; with one, only
 * `Authorization: Bearer <token>` is let through (Prometheus: `authorization: { credentials: … }`
 * in the scrape config, docs/deployment.md). The comparison is of SHA-256 digests with
 * `timingSafeEqual`, so its time says nothing about the token.
 * @param token METRICS_TOKEN, or undefined for an open endpoint.
 * @param authorization the request's `Authorization` header, if any.
 * @returns null when the request may read the metrics, else the 401 to send (with
 *   `WWW-Authenticate: Bearer realm="metrics"`, RFC 6750 §3).
 */
export function checkMetricsToken(token: string | undefined, authorization: string | undefined): MetricsRefusal | null {
  if (token === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (match && timingSafeEqual(digest(match[1]!), digest(token))) return null;
  return {
    status: 401,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' },
    body: match
      ? 'The metrics token is wrong: send Authorization: Bearer <METRICS_TOKEN>.\n'
      : 'The metrics need a token on this service: send Authorization: Bearer <METRICS_TOKEN>.\n',
  };
}
