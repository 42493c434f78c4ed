/** Shared formatting of the portal's pages (times in UTC, lengths in m:ss). */

/** `2026-03-10 12:04 UTC`. */
export function formatDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Seconds as `m:ss` (`h:mm:ss` from an hour): 11.05 → `0:11`. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Seconds as a transcript time label `mm:ss.s` (`1:02:03.4` from an hour). */
export function formatTimestamp(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const h = Math.floor(tenths / 36000);
  const m = Math.floor((tenths % 36000) / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${String(m).padStart(2, '0')}:${s}`;
}

/** Where a prediction was made (spec 2.6.6 namespaces), in words. */
export function describeNamespace(namespace: string): string {
  return ({ portal: 'Portal', api: 'API', bot: 'Telegram bot' } as Record<string, string>)[namespace] ?? namespace;
}

/** The recording of a prediction in words: `upload:talk.wav` → `talk.wav`; a link stays a link. */
export function describeAudio(audio: string): string {
  if (audio.startsWith('upload:')) return audio.slice('upload:'.length) || 'uploaded file';
  if (audio.startsWith('data:')) return 'inline data';
  return audio.length > 80 ? `${audio.slice(0, 77)}…` : audio;
}
