import type { Db } from '../../platform/db/open-database.ts';
import { botDeliveries, type BotDeliveryRow } from '../../platform/db/bot-schema.ts';

export type NewBotDelivery = Omit<BotDeliveryRow, 'createdAt' | 'deliveredAt'>;

/**
 * Stores where the bot answers prediction `delivery.predictionId` (chat, status message, asker), so
 * a bot restarted before the result is shown still delivers it (resume-bot-deliveries in apps/bot).
 */
export async function recordBotDelivery(db: Db, delivery: NewBotDelivery): Promise<void> {
  await db.insert(botDeliveries).values(delivery).onConflictDoNothing();
}
