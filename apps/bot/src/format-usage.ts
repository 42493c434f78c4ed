import type { NamespaceUsage } from '@transcribe/core';

const PLACES: Record<string, string> = { bot: 'In this chat', api: 'Through the API', portal: 'In the account portal' };

/** The /usage reply: recordings and minutes of audio per place, across all the person's keys. */
export function formatUsage(usage: readonly NamespaceUsage[]): string {
  if (usage.length === 0) return 'You have not transcribed anything yet. Send me a voice message to start.';
  const lines = usage.map((entry) => {
    const minutes = (entry.audioSeconds / 60).toFixed(1);
    const noun = entry.predictions === 1 ? 'recording' : 'recordings';
    return `• ${PLACES[entry.namespace] ?? entry.namespace}: ${entry.predictions} ${noun} (${entry.succeeded} done), ${minutes} min of audio`;
  });
  return ['Your usage so far:', ...lines].join('\n');
}
