import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botDeliveries, type BotDeliveryRow } from '../../platform/db/bot-schema.ts';
import { predictions } from '../../platform/db/schema.ts';
import { DEFAULT_JOB_COST_SECONDS } from '../queue/assign-fair-start-tags.ts';

/** A delivery not yet shown, with its prediction's status and start time (null while it waits). */
export interface PendingBotDelivery extends BotDeliveryRow {
  status: string;
  startedAt: Date | null;
  /**
   * The recording's length, seconds: probed once the worker read it, else the length Telegram
   * stated (the fair queue's charge when it is not the default for "unknown"); null when neither is known.
   */
  durationSeconds: number | null;
}

/**
 * The bot's deliveries whose result was not yet shown, oldest first; with `userId`, only that
 * person's, and with `unfinished`, only those whose prediction still waits or runs (what /cancel
 * can stop). Deliveries whose prediction was deleted are left out.
 */
export async function listPendingBotDeliveries(
  db: Db,
  filter: { userId?: number; unfinished?: boolean } = {},
): Promise<PendingBotDelivery[]> {
  const rows = await db
    .select({
      delivery: botDeliveries,
      status: predictions.status,
      startedAt: predictions.startedAt,
      audioSeconds: predictions.audioSeconds,
      queueCost: predictions.queueCost,
    })
    .from(botDeliveries)
    .innerJoin(predictions, eq(predictions.id, botDeliveries.predictionId))
    .where(
      and(
        isNull(botDeliveries.deliveredAt),
        filter.userId === undefined ? undefined : eq(botDeliveries.userId, filter.userId),
        filter.unfinished ? inArray(predictions.status, ['starting', 'processing']) : undefined,
      ),
    )
    .orderBy(asc(botDeliveries.createdAt));
  return rows.map((row) => ({
    ...row.delivery,
    status: row.status,
    startedAt: row.startedAt,
    durationSeconds: row.audioSeconds ?? (row.queueCost === null || row.queueCost === DEFAULT_JOB_COST_SECONDS ? null : row.queueCost),
  }));
}
