import type { SpeakerTurn, TimeRegion } from '../speaker-turn.ts';

/** A speaker turn read from an RTTM file, with the recording it belongs to. */
export interface RttmTurn extends SpeakerTurn {
  /** The RTTM file id (second field), e.g. `sample`. */
  file: string;
}

/** A scored region read from a UEM file. */
export interface UemRegion extends TimeRegion {
  /** The file id (first field). */
  file: string;
}

/**
 * Parses NIST RTTM text: one `SPEAKER <file> <channel> <start> <duration> <ortho> <type> <name> <conf> <lookahead>`
 * line per turn (seconds). Other record types (`SPKR-INFO`, `LEXEME`, …), blank lines and `;;` comments are skipped;
 * turns of zero duration are dropped.
 * @returns turns in file order, `end = start + duration`.
 * @throws Error naming the line number when a SPEAKER line has fewer than 8 fields or a bad time.
 */
export function parseRttm(text: string): RttmTurn[] {
  const turns: RttmTurn[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'SPEAKER') return;
    if (fields.length < 8) throw new Error(`RTTM line ${index + 1}: expected at least 8 fields, got ${fields.length}`);
    const start = parseSeconds(fields[3]!, `RTTM line ${index + 1}`);
    const duration = parseSeconds(fields[4]!, `RTTM line ${index + 1}`);
    if (duration > 0) turns.push({ file: fields[1]!, start, end: start + duration, speaker: fields[7]! });
  });
  return turns;
}

/**
 * Parses UEM text: one `<file> <channel> <start> <end>` line per scored region (seconds);
 * blank lines and `;;` comments are skipped.
 * @throws Error naming the line number for a line with fewer than 4 fields, a bad time or `end < start`.
 */
export function parseUem(text: string): UemRegion[] {
  const regions: UemRegion[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith(';;')) return;
    const fields = trimmed.split(/\s+/);
    const where = `UEM line ${index + 1}`;
    if (fields.length < 4) throw new Error(`${where}: expected 4 fields, got ${fields.length}`);
    const start = parseSeconds(fields[2]!, where);
    const end = parseSeconds(fields[3]!, where);
    if (end < start) throw new Error(`${where}: end ${end} is before start ${start}`);
    regions.push({ file: fields[0]!, start, end });
  });
  return regions;
}

function parseSeconds(field: string, where: string): number {
  const seconds = Number(field);
  if (field === '' || !Number.isFinite(seconds) || seconds < 0) throw new Error(`${where}: "${field}" is not a time in seconds`);
  return seconds;
}
