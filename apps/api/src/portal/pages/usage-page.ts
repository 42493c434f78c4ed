import type { AccountPrediction, DailyMinutes } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import { describeAudio, describeNamespace, describeStatus, formatDateTime, formatDuration, formatNumber } from './format.ts';
import { usageChart } from './usage-chart.ts';

/**
 * Usage: totals, a chart of audio minutes per day over the cache window (spec 2.6.1), and every
 * prediction of the person with status, audio length and charge or "free repeat" (spec 2.6.2), in
 * the reader's language.
 */
export function usagePage(
  rows: AccountPrediction[],
  days: DailyMinutes[],
  windowDays: number,
  waits: Map<string, string>,
  reader: PortalReader,
): SafeHtml {
  const { t } = reader;
  const charged = days.reduce((sum, day) => sum + day.chargedMinutes, 0);
  const free = days.reduce((sum, day) => sum + day.freeMinutes, 0);
  return html`<p>${t('portal-usage-window', { days: windowDays })}</p>
<dl class="totals">
  <div><dt>${t('portal-usage-transcriptions')}</dt><dd>${rows.length}</dd></div>
  <div><dt>${t('portal-usage-charged')}</dt><dd>${formatNumber(charged, 1, reader)}</dd></div>
  <div><dt>${t('portal-usage-free')}</dt><dd>${formatNumber(free, 1, reader)}</dd></div>
</dl>
<h2>${t('portal-usage-per-day')}</h2>
${usageChart(days, reader)}
<h2>${t('portal-usage-transcriptions')}</h2>
${rows.length === 0 ? html`<p>${t('portal-usage-nothing')} <a href="/portal/transcribe">${t('portal-usage-transcribe-link')}</a> ${t('portal-usage-or-key')}</p>` : predictionTable(rows, waits, reader)}`;
}

/** `waits`: an unfinished prediction's place and wait in words by id ("3 recordings ahead, about 2 minutes"). */
function predictionTable(rows: AccountPrediction[], waits: Map<string, string>, reader: PortalReader): SafeHtml {
  const { t } = reader;
  const body = rows.map(
    (row) => html`<tr>
  <td><a href="/portal/predictions/${row.id}">${formatDateTime(row.createdAt)}</a></td>
  <td>${describeAudio(row.audio, t)}</td>
  <td>${describeNamespace(row.namespace, t)}</td>
  <td><span class="status status-${row.status}">${describeStatus(row.status, t)}</span>${waits.has(row.id) ? html` <span class="hint">${waits.get(row.id)!}</span>` : ''}</td>
  <td>${row.audioSeconds === null ? '—' : formatDuration(row.audioSeconds)}</td>
  <td>${describeCharge(row, reader)}</td>
</tr>`,
  );
  return html`<div class="table-scroll" role="region" aria-label="${t('portal-usage-transcriptions')}" tabindex="0"><table class="usage">
<thead><tr><th scope="col">${t('portal-col-created')}</th><th scope="col">${t('portal-col-recording')}</th><th scope="col">${t('portal-col-made-in')}</th><th scope="col">${t('portal-col-status')}</th><th scope="col">${t('portal-col-audio')}</th><th scope="col">${t('portal-col-charge')}</th></tr></thead>
<tbody>${body}</tbody></table></div>`;
}

/** `free repeat`, `1.50 (0:11 charged)`, `0:11 charged` (no price set), or `not charged`. */
function describeCharge(row: AccountPrediction, reader: PortalReader): string {
  const { t } = reader;
  if (!row.charge) return row.status === 'processing' ? '—' : t('portal-charge-none');
  if (row.charge.reason === 'free_repeat') return t('portal-charge-free');
  const length = t('portal-charged', { duration: formatDuration(row.charge.audioSeconds) });
  return row.charge.amount > 0 ? `${formatNumber(row.charge.amount, 2, reader)} (${length})` : length;
}
