/**
 * Spec 2.2 `audio` (required): the recording, as an http(s) link or, for local files sent by the
 * prediction clients, a base64 `data:` URI (replicate-compat 3 "File inputs" and 10.6).
 */
import { z } from 'zod';

/** Longest accepted http(s) link, in characters (signed storage links stay far below). */
export const MAX_AUDIO_LINK_CHARS = 16_384;

const FORMS = 'an http:// or https:// link to the recording, or a base64 data: URI (data:<mime>;base64,<data>)';
/** `data:` + optional media type + `;name=value` parameters, ending in `;base64`. */
const DATA_HEADER = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[^;,]*)*;base64$/i;
const BASE64_BODY = /^[A-Za-z0-9+/_-]*$/;
const BASE64_END = /^[A-Za-z0-9+/_-]*={0,2}$/;
const SAMPLE_CHARS = 1024;

/**
 * The zod schema of `audio` (also `url` of the legacy variant, spec 9).
 *
 * Accepted: a string, surrounding whitespace trimmed, that is
 * - an `http://` or `https://` URL (parsed with `new URL`, at most {@link MAX_AUDIO_LINK_CHARS}), or
 * - a data URI `data:[<mime>][;params];base64,<data>` with any or empty media type and non-empty
 *   base64 data (standard or URL-safe alphabet). Only the first and last 1024 data characters are
 *   checked here; damaged content is reported later when the recording is decoded.
 * Non-base64 (percent-encoded) data URIs are refused.
 *
 * @param param the parameter name used in details, `audio` or `url`.
 * @returns a schema whose output is the trimmed string, unchanged otherwise (links are not
 *   normalised, so signed links keep working). Its issues carry the 422 detail as message: missing
 *   (absent, null or blank), not a string, or of another form. The value itself is never quoted:
 *   links may hold tokens and data URIs are huge.
 */
export function audioSchema(param = 'audio') {
  const required = `${param} is required: give ${FORMS}, or upload the file.`;
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? required : `${param} must be a string: ${FORMS}.`) })
    .trim()
    .superRefine((text, ctx) => {
      const problem = text === '' ? required : /^data:/i.test(text) ? dataUriProblem(text, param) : linkProblem(text, param);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({
      format: 'uri',
      description: 'HTTP(S) link to one audio or video recording, a data: URI, or the urls.get of a file uploaded with POST /files.',
    });
}

function linkProblem(text: string, param: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${param} is not a valid link; give ${FORMS}.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `${param} must be ${FORMS}; links of another scheme are not supported.`;
  }
  if (text.length > MAX_AUDIO_LINK_CHARS) return `${param} link is too long: at most ${MAX_AUDIO_LINK_CHARS} characters.`;
  return undefined;
}

function dataUriProblem(text: string, param: string): string | undefined {
  const comma = text.indexOf(',');
  const header = comma < 0 ? text.slice(0, 300) : text.slice(0, comma);
  if (comma < 0 || header.length > 256 || !DATA_HEADER.test(header)) {
    return `${param} as a data: URI must have the form data:<mime>;base64,<data>; other data URIs are not supported.`;
  }
  const data = text.slice(comma + 1);
  if (data === '') return `${param} data: URI holds no data; put the base64-encoded recording after the comma.`;
  if (!looksLikeBase64(data)) return `${param} data: URI does not hold valid base64 data.`;
  return undefined;
}

function looksLikeBase64(data: string): boolean {
  if (data.length <= SAMPLE_CHARS * 2) return BASE64_END.test(data);
  return BASE64_BODY.test(data.slice(0, SAMPLE_CHARS)) && BASE64_END.test(data.slice(-SAMPLE_CHARS));
}
