import {
  ensureOwnerApiKey, summarizeOwnerUsage, summarizeUsage, telegramOwner,
  type NamespaceUsage, type UsageSummary,
} from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

const PLACES: Record<string, string> = { bot: 'In this chat', api: 'Through the API', portal: 'In the account portal' };

/**
 * The /usage reply for a Telegram user: recordings and minutes per place across all the person's
 * keys, and what the usage ledger charged in the current window (spec 2.6.2–3).
 */
export async function describeUsage(deps: BotDeps, telegramId: number): Promise<string> {
  const { db } = deps.service.database;
  const owner = telegramOwner(telegramId);
  const places = await summarizeOwnerUsage(db, owner);
  if (places.length === 0) return formatUsage([], null);
  const charged = await summarizeUsage(db, await ensureOwnerApiKey(db, owner, BOT_KEY_LABEL), deps.service.config.cacheTtlDays);
  return formatUsage(places, charged);
}

/** Lines of the /usage reply (pure). */
export function formatUsage(places: readonly NamespaceUsage[], charged: UsageSummary | null): string {
  if (places.length === 0 || charged === null) return 'You have not transcribed anything yet. Send me a voice message to start.';
  const lines = places.map((entry) => {
    const noun = entry.predictions === 1 ? 'recording' : 'recordings';
    const place = PLACES[entry.namespace] ?? entry.namespace;
    return `• ${place}: ${entry.predictions} ${noun} (${entry.succeeded} done), ${minutes(entry.audioSeconds)} of audio`;
  });
  const amount = charged.amount_charged > 0 ? `, amount ${charged.amount_charged}` : '';
  const free = charged.free_repeats > 0 ? `; ${charged.free_repeats} free repeats` : '';
  lines.push(`Charged in the last ${charged.window_days} days: ${minutes(charged.audio_seconds_charged)} of audio${amount}${free}.`);
  return ['Your usage so far:', ...lines].join('\n');
}

function minutes(seconds: number): string {
  return `${(seconds / 60).toFixed(1)} min`;
}
