import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/open-database.ts';

/** The pg-boss queue that carries one job per prediction to run. */
export const TRANSCRIBE_QUEUE = 'transcribe';

export interface JobQueueOptions {
  /** PostgreSQL URL: pg-boss opens its own pool. Absent for PGlite, where the open database is shared. */
  databaseUrl?: string | undefined;
  /** A running job that has not finished after this many seconds is failed and retried (crash safety). */
  expireInSeconds: number;
  /** How often pg-boss looks for expired jobs, in seconds. */
  maintenanceIntervalSeconds?: number;
  /**
   * Where pg-boss's own errors go (component `queue`): a lost connection while polling, a failed
   * maintenance run. pg-boss recovers from them itself, so they are warnings, not crashes.
   */
  logger: Pick<Logger, 'warn'>;
}

/**
 * Starts pg-boss on the service's database (PostgreSQL, or PGlite through its SQL adapter) and
 * makes sure the transcribe queue exists with the settings of this start. Jobs are rows in the
 * database, so a restart loses nothing.
 * @throws Error when pg-boss cannot install its schema.
 */
export async function openJobQueue(database: Database, options: JobQueueOptions): Promise<PgBoss> {
  const common = {
    schema: 'pgboss',
    superviseIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
  };
  const boss = options.databaseUrl
    ? new PgBoss({ connectionString: options.databaseUrl, max: 4, ...common })
    : new PgBoss({ db: { executeSql: (text, values) => database.executeSql(text, values) }, ...common });
  boss.on('error', (error) =>
    options.logger.warn({ component: 'queue', err: { type: error.name, message: error.message } }, `pg-boss: ${error.message}`),
  );
  await boss.start();
  const settings = { name: TRANSCRIBE_QUEUE, retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: options.expireInSeconds };
  await boss.createQueue(TRANSCRIBE_QUEUE, settings);
  // createQueue leaves an existing queue as it was: a restart with another JOB_EXPIRE_SECONDS must
  // still take effect (pg-boss's updateQueue; new jobs take the queue's settings).
  await boss.updateQueue(TRANSCRIBE_QUEUE, settings);
  return boss;
}
