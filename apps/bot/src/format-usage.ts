import {
  ensureOwnerApiKey,
  summarizeOwnerUncharged,
  summarizeOwnerUsage,
  summarizeUsage,
  telegramOwner,
  type NamespaceUsage,
  type UnchargedUsage,
  type UsageSummary,
} from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { textsFor, type TextReader, type Translate } from './bot-i18n.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

/**
 * The /usage reply for a Telegram user: recordings and minutes per place across all the person's
 * keys, what the usage ledger charged in the current window (spec 2.6.2–3), and what was not
 * charged in that window and why (canceled, failed, repeats taken from the cache), so the minutes
 * add up; in the reader's language.
 */
export async function describeUsage(deps: BotDeps, reader: TextReader): Promise<string> {
  const { db } = deps.service.database;
  const owner = telegramOwner(reader.id);
  const t = textsFor(deps, reader);
  const places = await summarizeOwnerUsage(db, owner);
  if (places.length === 0) return formatUsage([], null, t);
  const windowDays = deps.service.config.cacheTtlDays;
  const charged = await summarizeUsage(db, await ensureOwnerApiKey(db, owner, BOT_KEY_LABEL), windowDays);
  return formatUsage(places, charged, t, await summarizeOwnerUncharged(db, owner, windowDays));
}

/**
 * Lines of the /usage reply (pure). Minutes are numbers for Fluent's NUMBER, so they read `1.2` in
 * English and `1,2` in Russian.
 */
export function formatUsage(
  places: readonly NamespaceUsage[],
  charged: UsageSummary | null,
  t: Translate,
  uncharged: UnchargedUsage | null = null,
): string {
  if (places.length === 0 || charged === null) return t('usage-none');
  const lines = places.map((entry) =>
    t('usage-place', { place: entry.namespace, count: entry.predictions, done: entry.succeeded, minutes: minutes(entry.audioSeconds) }),
  );
  const amount = charged.amount_charged > 0 ? t('usage-amount', { amount: charged.amount_charged }) : '';
  lines.push(t('usage-charged', { days: charged.window_days, minutes: minutes(charged.audio_seconds_charged), amount }));
  if (uncharged) {
    const parts = [
      uncharged.canceled.count > 0
        ? t('usage-canceled', { count: uncharged.canceled.count, minutes: minutes(uncharged.canceled.audioSeconds) })
        : '',
      uncharged.failed.count > 0
        ? t('usage-failed', { count: uncharged.failed.count, minutes: minutes(uncharged.failed.audioSeconds) })
        : '',
      uncharged.freeRepeats.count > 0
        ? t('usage-from-cache', { count: uncharged.freeRepeats.count, minutes: minutes(uncharged.freeRepeats.audioSeconds) })
        : '',
    ].filter((part) => part !== '');
    if (parts.length > 0) lines.push(t('usage-not-charged', { parts: parts.join('; ') }));
  }
  return [t('usage-title'), ...lines].join('\n');
}

/** Minutes of `seconds`, to one decimal. */
function minutes(seconds: number): number {
  return Math.round(seconds / 6) / 10;
}
