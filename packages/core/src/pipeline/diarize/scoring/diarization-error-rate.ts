import { matchMaximumWeight } from './match-maximum-weight.ts';
import type { SpeakerTurn, TimeRegion } from '../speaker-turn.ts';
import { clipToRegions, mergeRegions, subtractRegions } from '../time-regions.ts';

export interface DiarizationErrorOptions {
  /**
   * Seconds excluded on EACH side of every reference turn boundary (NIST md-eval `-c`; 0.25 is the
   * usual value and equals pyannote.metrics `collar=0.5`). Default 0.
   */
  collar?: number;
  /** Scored regions (a UEM); default: from the earliest to the latest turn of either side. */
  uem?: readonly TimeRegion[];
}

export interface DiarizationError {
  /** (missed + falseAlarm + confusion) / total; 0 when nothing is scored and nothing is hypothesised, 1 when only false alarms. */
  der: number;
  /** Reference speaker-seconds with no hypothesis speaker. */
  missed: number;
  /** Hypothesis speaker-seconds with no reference speaker. */
  falseAlarm: number;
  /** Speaker-seconds given to the wrong speaker under the optimal one-to-one mapping. */
  confusion: number;
  /** Reference speaker-seconds scored (overlapped speech counts once per speaker). */
  total: number;
  /** The optimal mapping: reference label → hypothesis label, or null when left unmatched. */
  mapping: Record<string, string | null>;
}

interface Piece {
  seconds: number;
  reference: string[];
  hypothesis: string[];
}

/**
 * Diarization error rate of `hypothesis` against `reference`, as NIST md-eval / pyannote.metrics compute it:
 * the scored time is cut into pieces at every boundary; each piece of d seconds with R reference and
 * H hypothesis speakers adds d·max(0, R−H) missed, d·max(0, H−R) false alarm and d·(min(R, H) − correct)
 * confusion, where `correct` counts speakers matched by the one-to-one mapping that maximises the time
 * reference and hypothesis speakers talk together (Hungarian algorithm). Times are in seconds.
 * @returns the rate and its parts in seconds.
 */
export function diarizationErrorRate(
  reference: readonly SpeakerTurn[],
  hypothesis: readonly SpeakerTurn[],
  options: DiarizationErrorOptions = {},
): DiarizationError {
  const scored = scoredRegions(reference, hypothesis, options);
  const pieces = cutIntoPieces(clipTurns(reference, scored), clipTurns(hypothesis, scored));
  const mapping = mapSpeakers(pieces);
  let [missed, falseAlarm, confusion, total] = [0, 0, 0, 0];
  for (const piece of pieces) {
    const correct = piece.reference.filter((speaker) => {
      const mapped = mapping[speaker];
      return mapped !== null && mapped !== undefined && piece.hypothesis.includes(mapped);
    }).length;
    const [r, h] = [piece.reference.length, piece.hypothesis.length];
    total += piece.seconds * r;
    missed += piece.seconds * Math.max(0, r - h);
    falseAlarm += piece.seconds * Math.max(0, h - r);
    confusion += piece.seconds * (Math.min(r, h) - correct);
  }
  const errors = missed + falseAlarm + confusion;
  const der = total > 0 ? errors / total : errors > 0 ? 1 : 0;
  return { der, missed, falseAlarm, confusion, total, mapping };
}

function scoredRegions(
  reference: readonly SpeakerTurn[],
  hypothesis: readonly SpeakerTurn[],
  options: DiarizationErrorOptions,
): TimeRegion[] {
  const all = [...reference, ...hypothesis];
  const whole =
    options.uem ?? (all.length === 0 ? [] : [{ start: Math.min(...all.map((t) => t.start)), end: Math.max(...all.map((t) => t.end)) }]);
  const collar = options.collar ?? 0;
  if (collar <= 0) return mergeRegions(whole);
  const around = reference.flatMap((turn) => [turn.start, turn.end]).map((t) => ({ start: t - collar, end: t + collar }));
  return subtractRegions(mergeRegions(whole), mergeRegions(around));
}

/** Per speaker: their turns merged, then clipped to the scored regions. */
function clipTurns(turns: readonly SpeakerTurn[], scored: readonly TimeRegion[]): SpeakerTurn[] {
  const bySpeaker = new Map<string, SpeakerTurn[]>();
  for (const turn of turns) bySpeaker.set(turn.speaker, [...(bySpeaker.get(turn.speaker) ?? []), turn]);
  return [...bySpeaker].flatMap(([speaker, own]) => clipToRegions(mergeRegions(own), scored).map((region) => ({ ...region, speaker })));
}

/** Sweeps the turn boundaries; each stretch between two boundaries with any speaker becomes a piece. */
function cutIntoPieces(reference: SpeakerTurn[], hypothesis: SpeakerTurn[]): Piece[] {
  type Event = { time: number; delta: 1 | -1; speaker: string; side: 'reference' | 'hypothesis' };
  const events: Event[] = [];
  for (const [side, turns] of [
    ['reference', reference],
    ['hypothesis', hypothesis],
  ] as const) {
    for (const turn of turns)
      events.push({ time: turn.start, delta: 1, speaker: turn.speaker, side }, { time: turn.end, delta: -1, speaker: turn.speaker, side });
  }
  events.sort((a, b) => a.time - b.time);
  const active = { reference: new Set<string>(), hypothesis: new Set<string>() };
  const pieces: Piece[] = [];
  for (let i = 0; i < events.length; i += 1) {
    const event = events[i]!;
    if (event.delta === 1) active[event.side].add(event.speaker);
    else active[event.side].delete(event.speaker);
    const next = events[i + 1];
    if (next === undefined || next.time <= event.time) continue;
    if (active.reference.size + active.hypothesis.size === 0) continue;
    pieces.push({ seconds: next.time - event.time, reference: [...active.reference], hypothesis: [...active.hypothesis] });
  }
  return pieces;
}

function mapSpeakers(pieces: readonly Piece[]): Record<string, string | null> {
  const references = [...new Set(pieces.flatMap((piece) => piece.reference))];
  const hypotheses = [...new Set(pieces.flatMap((piece) => piece.hypothesis))];
  const weights = references.map(() => hypotheses.map(() => 0));
  for (const piece of pieces) {
    for (const r of piece.reference) {
      for (const h of piece.hypothesis) weights[references.indexOf(r)]![hypotheses.indexOf(h)]! += piece.seconds;
    }
  }
  const match = matchMaximumWeight(weights);
  return Object.fromEntries(references.map((r, i) => [r, match[i]! >= 0 ? hypotheses[match[i]!]! : null]));
}
