import { LANGUAGES } from '@transcribe/core';
import { languageLabel } from '@transcribe/bot/languages';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';

/**
 * The languages (spec 2.5) as a portal page, public: each one's name in the reader's language, its
 * code, and whether this server's engine recognises it; the same facts as the API's `GET
 * …/v1/languages`, which needs a key and so answers 401 in a browser. Language errors of the
 * portal link here. Sorted by name in the reader's language.
 */
export function languagesPage(recognised: readonly string[] | 'any', reader: PortalReader): SafeHtml {
  const { t } = reader;
  const rows = LANGUAGES.map((language) => ({ code: language.code, label: languageLabel(language.code, reader.locale) }))
    .sort((a, b) => a.label.localeCompare(b.label, reader.locale))
    .map((language) => {
      const here = recognised === 'any' || recognised.includes(language.code);
      return html`<tr${here ? html` class="recognised"` : ''}><td>${language.label}</td><td><code>${language.code}</code></td><td>${t(here ? 'portal-yes' : 'portal-no')}</td></tr>`;
    });
  return html`<p>${t('portal-languages-intro')}</p>
<div class="table-scroll" role="region" aria-label="${t('portal-languages-title')}" tabindex="0"><table class="languages">
<thead><tr><th scope="col">${t('portal-languages-col-language')}</th><th scope="col">${t('portal-languages-col-code')}</th><th scope="col">${t('portal-languages-col-recognised')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}
