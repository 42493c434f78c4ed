/**
 * Time arithmetic and time labels shared by every renderer (spec 2.3.3–2.3.5).
 * Input times are always seconds from the start of the recording; negative times clamp to 0.
 * Labels are built from whole integer units (ms or cs) so that no float noise reaches the output.
 */

/** Whole milliseconds of `seconds`, rounded to nearest, never negative. */
export function toMilliseconds(seconds: number): number {
  return Math.max(0, Math.round(seconds * 1000));
}

/** `seconds` rounded to the millisecond (the precision of every time in json / json2, spec 2.3.3). */
export function roundSeconds(seconds: number): number {
  return toMilliseconds(seconds) / 1000;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * Text label `HH:MM:SS.cc` (hundredths of a second) for the text transcript (spec 2.3.5).
 * Hours are always shown (at least 2 digits) so lines of long recordings sort as strings.
 * Example: 3723.456 s → `01:02:03.46`.
 */
export function formatClockTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const hours = Math.floor(cs / 360_000);
  const minutes = Math.floor(cs / 6_000) % 60;
  const secs = Math.floor(cs / 100) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}.${pad(cs % 100)}`;
}

/**
 * SRT label `HH:MM:SS,mmm` (spec 2.3.5, SubRip). Example: 3723.456 s → `01:02:03,456`.
 */
export function formatSrtTime(seconds: number): string {
  const ms = toMilliseconds(seconds);
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const secs = Math.floor(ms / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)},${pad(ms % 1000, 3)}`;
}

/**
 * LRC label `mm:ss.xx` (hundredths) without brackets (spec 2.3.5). Minutes are total minutes
 * and may exceed 59 for recordings over an hour: 4503.2 s → `75:03.20`.
 */
export function formatLrcTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const minutes = Math.floor(cs / 6_000);
  const secs = Math.floor(cs / 100) % 60;
  return `${pad(minutes)}:${pad(secs)}.${pad(cs % 100)}`;
}
