import { lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botDeliveries } from '../../platform/db/bot-schema.ts';

/**
 * Deletes the bot's deliveries shown more than `days` days ago (default 30): a shown delivery is
 * kept only so that two runs of the bot never answer twice, which matters for minutes, not months.
 * @returns how many rows were deleted.
 */
export async function pruneBotDeliveries(db: Db, days = 30): Promise<number> {
  const before = new Date(Date.now() - days * 86_400_000);
  const deleted = await db.delete(botDeliveries).where(lt(botDeliveries.deliveredAt, before)).returning({ id: botDeliveries.predictionId });
  return deleted.length;
}
