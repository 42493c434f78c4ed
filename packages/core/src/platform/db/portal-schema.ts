/**
 * Tables of the account portal (spec 5.2): one-time sign-in links and browser sessions.
 * Only SHA-256 hashes of the link tokens and session secrets are stored. Re-exported by schema.ts.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One-time sign-in links made by the bot's `/portal` command or `npm run portal -- login-link`.
 * A link works once (`usedAt` set when redeemed) and only until `expiresAt`.
 */
export const portalLoginLinks = pgTable(
  'portal_login_links',
  {
    /** Hex SHA-256 of the token in the link. */
    tokenHash: text('token_hash').primaryKey(),
    /** Whom the link signs in, e.g. `telegram:42` or `portal:admin` (the owner of their API keys). */
    owner: text('owner').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('portal_login_links_expires_idx').on(t.expiresAt)],
);

/** Signed-in browsers: the cookie holds the secret, the table its hash. Signing out deletes the row. */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    /** Hex SHA-256 of the session secret in the cookie. */
    secretHash: text('secret_hash').primaryKey(),
    owner: text('owner').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('portal_sessions_owner_idx').on(t.owner), index('portal_sessions_expires_idx').on(t.expiresAt)],
);

export type PortalLoginLinkRow = typeof portalLoginLinks.$inferSelect;
export type PortalSessionRow = typeof portalSessions.$inferSelect;
