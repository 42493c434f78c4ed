/**
 * Text hygiene for the line-based formats (text, srt, lrc; spec 2.3.5): a segment's text must
 * fit on the lines the format gives it, so line breaks and runs of whitespace become one space.
 */

/** `text` with every run of whitespace (including line breaks) made one space, and trimmed. */
export function cleanText(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** Length of `text` in characters (Unicode code points, not UTF-16 units). */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
