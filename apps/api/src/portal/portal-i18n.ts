import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import { LOCALES_DIR } from '@transcribe/bot/locales';

/** The languages the portal speaks: the bot's (the same Fluent catalogs, apps/bot/locales); English is the fallback. */
export const PORTAL_LOCALES = ['en', 'ru'] as const;
export type PortalLocale = (typeof PORTAL_LOCALES)[number];

/** A text by its catalog key (`portal-…`, `type-summary`), with Fluent variables; numbers pick plural forms. */
export type PortalTranslate = (key: string, variables?: Record<string, string | number>) => string;

/** Who reads a page: its texts and their language (for numbers and dates, and `<html lang>`). */
export interface PortalReader {
  t: PortalTranslate;
  locale: PortalLocale;
}

const bundles = new Map<PortalLocale, FluentBundle>();

/**
 * The catalog of `locale`, read once on first use (the portal loads no catalog until a page is
 * asked for). Fluent's isolation marks are off, as in the bot: they would end up inside copied
 * commands and file names.
 */
function bundleOf(locale: PortalLocale): FluentBundle {
  let bundle = bundles.get(locale);
  if (!bundle) {
    bundle = new FluentBundle(locale, { useIsolating: false });
    const errors = bundle.addResource(new FluentResource(readFileSync(join(LOCALES_DIR, `${locale}.ftl`), 'utf8')));
    if (errors.length > 0) throw new Error(`${locale}.ftl: ${errors.map((error) => error.message).join('; ')}`);
    bundles.set(locale, bundle);
  }
  return bundle;
}

/** True for a language the portal speaks. */
export function isPortalLocale(value: unknown): value is PortalLocale {
  return typeof value === 'string' && (PORTAL_LOCALES as readonly string[]).includes(value);
}

/**
 * The texts in `locale`; a key missing there comes from English, and a key missing everywhere is
 * shown as itself (a test of the catalogs catches that: apps/bot/src/bot-i18n.test.ts).
 */
export function portalTranslator(locale: PortalLocale): PortalTranslate {
  return (key, variables) => {
    for (const bundle of locale === 'en' ? [bundleOf('en')] : [bundleOf(locale), bundleOf('en')]) {
      const message = bundle.getMessage(key);
      if (message?.value) return bundle.formatPattern(message.value, variables);
    }
    return key;
  };
}

/** A reader of `locale`. */
export function portalReader(locale: PortalLocale): PortalReader {
  return { t: portalTranslator(locale), locale };
}

/** The portal language of an IETF tag (`ru`, `ru-RU`, `en-GB`, `de`): Russian for Russian, English for the rest, as the bot does. */
export function localeFromTag(tag: string): PortalLocale {
  return tag.trim().toLowerCase().split(/[-_]/)[0] === 'ru' ? 'ru' : 'en';
}

/**
 * The first language of an `Accept-Language` header (RFC 9110 12.5.4: by weight, then order) the
 * portal speaks, or null (no header, or only other languages: the caller's default applies).
 */
export function localeFromAcceptLanguage(header: string | undefined): PortalLocale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isPortalLocale(primary)) return primary;
  }
  return null;
}
