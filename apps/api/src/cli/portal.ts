import { join, resolve } from 'node:path';
import { createLoginLink, describePortalOwner, openDatabase, portalAccountOwner, portalLoginUrl, telegramOwner } from '@transcribe/core';
import { parseEnv, type Env } from '../env.ts';
import { readLiveServiceLock, type ServiceLockInfo } from '../service-lock.ts';
import { CliError, createCli, EXIT, exitCodeOf, runCli } from './create-cli.ts';

interface MadeLink {
  url: string;
  expiresAt: Date | string;
  /** True when the embedded database's service was not running (the link works once it is started). */
  offline: boolean;
}

/** PGlite admits one process: while the service runs, it makes the link (admin-routes.ts). */
async function askService(lock: ServiceLockInfo, owner: string): Promise<MadeLink> {
  const response = await fetch(`http://127.0.0.1:${lock.port}/internal/portal/login-links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': lock.adminToken },
    body: JSON.stringify({ owner }),
    signal: AbortSignal.timeout(10_000),
  });
  const payload = (await response.json()) as { url?: string; expiresAt?: string; detail?: string };
  // 422: the service refused the owner's name (checkPortalOwner): a malformed value, the usage exit code.
  if (response.status === 422 && payload.detail) throw new CliError(payload.detail, EXIT.usage);
  if (!response.ok || !payload.url) throw new Error(payload.detail ?? `the running service answered HTTP ${response.status}`);
  return { url: payload.url, expiresAt: payload.expiresAt ?? '', offline: false };
}

/** Without a running service (or with PostgreSQL): write the link to the database directly. */
async function writeLink(env: Env, owner: string): Promise<MadeLink> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: join(resolve(env.DATA_DIR), 'pglite') });
  try {
    const { token, expiresAt } = await createLoginLink(database.db, owner);
    const root = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
    return { url: portalLoginUrl(root, token), expiresAt, offline: !env.DATABASE_URL };
  } finally {
    await database.close();
  }
}

const program = createCli('portal', 'The account portal: one-time sign-in links.');
program
  .command('login-link')
  .description('print a one-time sign-in link to the account portal (the last line; it works once, for 15 minutes)')
  .option('--account <name>', 'the portal account to sign in to (default: admin)')
  .option('--telegram <id>', 'a Telegram bot user instead: the same keys and usage as in the bot')
  .action(async (options: { account?: string; telegram?: string }) => {
    if (options.account !== undefined && options.telegram !== undefined) {
      program.commands[0]!.error('error: give --account or --telegram, not both', { exitCode: 2 });
    }
    const owner = options.telegram !== undefined ? telegramOwner(options.telegram) : portalAccountOwner(options.account ?? 'admin');
    const env = parseEnv();
    try {
      const lock = env.DATABASE_URL ? null : await readLiveServiceLock(resolve(env.DATA_DIR));
      const link = lock ? await askService(lock, owner) : await writeLink(env, owner);
      console.log(`One-time sign-in link for ${describePortalOwner(owner)}, valid until ${new Date(link.expiresAt).toISOString()}:`);
      if (link.offline) console.log('(The service is not running: start it with "npm start" before opening the link.)');
      console.log(link.url);
    } catch (error) {
      console.error(`portal: ${(error as Error).message}`);
      process.exitCode = exitCodeOf(error); // a malformed name: 2 (EXIT.usage); a database error: 1
    }
  });
await runCli(program);
