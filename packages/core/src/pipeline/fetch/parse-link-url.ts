import { AppError } from '../../platform/errors/app-error.ts';

/** Parses the user's link: absolute http: or https: URL. @throws AppError `invalid_input` (param `audio`). */
export function parseLinkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_input', 'The audio link is not a valid URL.', { param: 'audio' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AppError('invalid_input', 'The audio link must start with http:// or https://.', { param: 'audio' });
  }
  return parsed;
}

/**
 * The next URL of a redirect: `location` (absolute or relative) resolved against `from`.
 * @throws AppError `upstream_refused` (param `audio`) when it is not a valid http(s) URL.
 */
export function followLocation(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new AppError('upstream_refused', 'The link redirected to an invalid address.', { param: 'audio' });
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new AppError('upstream_refused', `The link redirected to an unsupported ${next.protocol} address.`, {
      param: 'audio',
    });
  }
  return next;
}
