import { fileURLToPath } from 'node:url';

/**
 * The folder of the message catalogs: `<locale>.ftl` (Fluent) per language, shared by the bot and
 * the web portal (apps/api/src/portal/portal-i18n.ts), so both speak the same words. A module of
 * its own, without grammY, so the portal can find the catalogs without loading the bot.
 */
export const LOCALES_DIR = fileURLToPath(new URL('../locales', import.meta.url));
