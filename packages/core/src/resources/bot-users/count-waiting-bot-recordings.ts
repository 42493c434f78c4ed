import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botDeliveries } from '../../platform/db/bot-schema.ts';
import { predictions } from '../../platform/db/schema.ts';

/**
 * How many of Telegram user `userId`'s recordings wait for a worker (prediction unfinished and not
 * started). The bot queues a new recording of the person with priority minus this count, so a
 * person's n-th waiting file goes after everyone else's first (priority by wait).
 */
export async function countWaitingBotRecordings(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ waiting: count() })
    .from(botDeliveries)
    .innerJoin(predictions, eq(predictions.id, botDeliveries.predictionId))
    .where(and(eq(botDeliveries.userId, userId), inArray(predictions.status, ['starting', 'processing']), isNull(predictions.startedAt)));
  return Number(row?.waiting ?? 0);
}
