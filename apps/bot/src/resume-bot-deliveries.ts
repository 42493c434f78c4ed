import { listPendingBotDeliveries, pruneBotDeliveries } from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { resumeStatusMessage } from './status-message.ts';
import { followDelivery } from './transcribe-media.ts';

/**
 * On start: drops deliveries shown over 30 days ago, then follows again every recording whose result was not yet shown (stored in
 * bot_deliveries when its prediction was made), so a restart while recordings wait or run loses
 * nothing, and results that finished while the bot was down are delivered now. Each goes on in
 * the background, its status message edited from where it was.
 * @returns how many deliveries were resumed.
 */
export async function resumeBotDeliveries(deps: BotDeps): Promise<number> {
  await pruneBotDeliveries(deps.service.database.db); // shown long ago: nothing left to guard
  const pending = await listPendingBotDeliveries(deps.service.database.db);
  let resumed = 0;
  for (const delivery of pending) {
    const status = resumeStatusMessage(deps.api, delivery.chatId, delivery.statusMessageId, null);
    if (deps.jobs.tryRun((signal) => followDelivery(deps, delivery, status, signal))) resumed++;
  }
  return resumed;
}
