/** Telegram's limit for the text of one message, in characters (UTF-16 code units). */
export const TELEGRAM_MESSAGE_LIMIT = 4096;

/** A sentence end: `.`, `!`, `?` or `…`, maybe closing quotes or brackets, then whitespace. */
const SENTENCE_END = /[.!?…]+["'”’»)\]]*(?=\s)/g;

/**
 * Splits `text` into chat messages of at most `limit` characters each, cutting at the last sentence
 * end that fits, else at a line break or space, else (one unbroken run longer than a
 * message) inside a word but never inside a surrogate pair. Whitespace at the cuts is dropped;
 * no part is empty; an all-whitespace text gives no parts.
 */
export function splitMessage(text: string, limit = TELEGRAM_MESSAGE_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const cut = findCut(rest, limit);
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) parts.push(rest);
  return parts;
}

/** Where to cut `text` (longer than `limit`): an index in 1..limit. */
function findCut(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  const sentence = lastSentenceEnd(window.slice(0, limit));
  const space = lastSpace(window);
  // A sentence end far back would leave a tiny message; then a later space is the better cut.
  if (sentence > 0 && sentence >= limit / 4) return sentence;
  if (space > 0) return space;
  if (sentence > 0) return sentence;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

function lastSentenceEnd(window: string): number {
  let last = -1;
  for (const match of window.matchAll(SENTENCE_END)) last = match.index + match[0].length;
  const lineBreak = window.lastIndexOf('\n');
  return Math.max(last, lineBreak);
}

function lastSpace(window: string): number {
  for (let index = window.length - 1; index > 0; index -= 1) {
    if (/\s/.test(window[index] ?? '')) return index;
  }
  return -1;
}
