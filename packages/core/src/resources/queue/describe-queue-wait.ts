import type { QueuePlace } from './estimate-queue-places.ts';

/**
 * A waiting prediction's place in words, as its logs say it: `Waiting: 3 recordings ahead, about 2
 * minutes`, `Waiting: next in line, less than a minute`. The time is until the estimated start.
 * @param nowMs the current time, ms since the epoch.
 */
export function describeQueueWait(place: QueuePlace, nowMs = Date.now()): string {
  const ahead = place.position === 0 ? 'next in line' : `${place.position} recording${place.position === 1 ? '' : 's'} ahead`;
  return `Waiting: ${ahead}, ${describeDuration((Date.parse(place.estimated_start_at) - nowMs) / 1000)}`;
}

/** `less than a minute`, `about 1 minute`, `about 25 minutes`, `about 3 hours` (seconds in, rounded as people say it). */
export function describeDuration(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `about ${Math.round(minutes / 60)} hours`;
}

/**
 * Whether a wait of `seconds` differs enough from the one last said (`said`, seconds) to be said
 * again: by half or more, and by at least a minute (so a 20 s wait that becomes 40 s is not news).
 */
export function waitChangedALot(said: number, seconds: number): boolean {
  return Math.abs(seconds - said) >= 60 && (seconds >= said * 1.5 || seconds <= said / 1.5);
}
