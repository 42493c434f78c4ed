import { Composer } from 'grammy';
import { cancelPrediction, listPendingBotDeliveries, type PendingBotDelivery } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { localeOf, textsFor } from './bot-i18n.ts';
import { describeRecording } from './describe-recording.ts';
import { CANCEL_BUTTON_PREFIX, CANCEL_FETCH_BUTTON } from './transcribe-media.ts';

/**
 * Cancelling (core cancelPrediction: the prediction becomes `canceled`; a waiting one is never
 * started, a running one stops within about a second). The ✖ Cancel button under a status message
 * cancels that recording (while its file is still fetched, the download: track-downloads.ts), only
 * for the person who asked (in a group others see the button too); `/cancel` cancels all of the
 * person's recordings being fetched, waiting or running, and lists them, each named by its length
 * and when it was sent (four voice messages are not four times "voice.ogg"). The status messages then
 * say "Canceled" (followDelivery in transcribe-media.ts).
 */
export function handleCancel(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(new RegExp(`^${CANCEL_BUTTON_PREFIX}(.+)$`), async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const predictionId = ctx.match[1]!;
    const mine = await listPendingBotDeliveries(deps.service.database.db, { userId: ctx.from.id, unfinished: true });
    const delivery = mine.find((entry) => entry.predictionId === predictionId);
    if (!delivery) return void (await ctx.answerCallbackQuery({ text: t('cannot-cancel'), show_alert: true }));
    const canceled = await cancelDelivery(deps, delivery);
    await ctx.answerCallbackQuery({ text: t(canceled ? 'canceled-short' : 'cannot-cancel') });
  });
  composer.callbackQuery(CANCEL_FETCH_BUTTON, async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const message = ctx.callbackQuery.message;
    const found = message ? deps.downloads.cancelOne(`${message.chat.id}:${message.message_id}`, ctx.from.id) : 'not_found';
    await ctx.answerCallbackQuery(found === 'canceled' ? { text: t('canceled-short') } : { text: t('cannot-cancel'), show_alert: true });
  });
  composer.command('cancel', async (ctx) => {
    if (!ctx.from) return;
    const t = textsFor(deps, ctx.from);
    const reader = { t, locale: localeOf(deps.locales, ctx.from) };
    const mine = await listPendingBotDeliveries(deps.service.database.db, { userId: ctx.from.id, unfinished: true });
    const canceled = deps.downloads
      .cancel(ctx.from.id)
      .map((recording) => t('canceled-fetching', { name: describeRecording(recording, reader) }));
    for (const delivery of mine) {
      if (await cancelDelivery(deps, delivery)) {
        const name = describeRecording(
          { fileName: delivery.fileName, durationSeconds: delivery.durationSeconds, sentAt: delivery.createdAt },
          reader,
        );
        canceled.push(t(delivery.startedAt ? 'canceled-running' : 'canceled-waiting', { name }));
      }
    }
    if (canceled.length === 0) return void (await ctx.reply(t('nothing-to-cancel')));
    await ctx.reply([t('canceled-list', { count: canceled.length }), ...canceled].join('\n'));
  });
  return composer;
}

/** Cancels the delivery's prediction; true when this call canceled it (false: it had just ended). */
async function cancelDelivery(deps: BotDeps, delivery: PendingBotDelivery): Promise<boolean> {
  const row = await cancelPrediction(deps.service, delivery.predictionId, delivery.apiKeyId);
  return row.status === 'canceled';
}
