import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botDeliveries } from '../../platform/db/bot-schema.ts';

/**
 * Records that the result of prediction `predictionId` (or its failure) was shown in its chat.
 * @returns false when it was already marked (another run of the bot delivered it first).
 */
export async function markBotDelivered(db: Db, predictionId: string): Promise<boolean> {
  const marked = await db
    .update(botDeliveries)
    .set({ deliveredAt: new Date() })
    .where(and(eq(botDeliveries.predictionId, predictionId), isNull(botDeliveries.deliveredAt)))
    .returning({ id: botDeliveries.predictionId });
  return marked.length > 0;
}
