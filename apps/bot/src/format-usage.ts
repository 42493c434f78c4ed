import {
  ensureOwnerApiKey,
  summarizeOwnerUsage,
  summarizeUsage,
  telegramOwner,
  type NamespaceUsage,
  type UsageSummary,
} from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { textsFor, type TextReader, type Translate } from './bot-i18n.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

/**
 * The /usage reply for a Telegram user: recordings and minutes per place across all the person's
 * keys, and what the usage ledger charged in the current window (spec 2.6.2–3), in the reader's language.
 */
export async function describeUsage(deps: BotDeps, reader: TextReader): Promise<string> {
  const { db } = deps.service.database;
  const owner = telegramOwner(reader.id);
  const t = textsFor(deps, reader);
  const places = await summarizeOwnerUsage(db, owner);
  if (places.length === 0) return formatUsage([], null, t);
  const charged = await summarizeUsage(db, await ensureOwnerApiKey(db, owner, BOT_KEY_LABEL), deps.service.config.cacheTtlDays);
  return formatUsage(places, charged, t);
}

/** Lines of the /usage reply (pure). */
export function formatUsage(places: readonly NamespaceUsage[], charged: UsageSummary | null, t: Translate): string {
  if (places.length === 0 || charged === null) return t('usage-none');
  const lines = places.map((entry) =>
    t('usage-place', { place: entry.namespace, count: entry.predictions, done: entry.succeeded, minutes: minutes(entry.audioSeconds) }),
  );
  const amount = charged.amount_charged > 0 ? t('usage-amount', { amount: String(charged.amount_charged) }) : '';
  const free = charged.free_repeats > 0 ? t('usage-free', { count: charged.free_repeats }) : '';
  lines.push(t('usage-charged', { days: charged.window_days, minutes: minutes(charged.audio_seconds_charged), amount, free }));
  return [t('usage-title'), ...lines].join('\n');
}

/** Minutes with one decimal, as text (`1.2`), so Fluent does not regroup or round it. */
function minutes(seconds: number): string {
  return (seconds / 60).toFixed(1);
}
