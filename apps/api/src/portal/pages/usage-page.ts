import type { AccountPrediction, DailyMinutes } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import { describeAudio, describeNamespace, formatDateTime, formatDuration } from './format.ts';
import { usageChart } from './usage-chart.ts';

/**
 * Usage: totals, a chart of audio minutes per day over the cache window (spec 2.6.1), and every
 * prediction of the person with status, audio length and charge or "free repeat" (spec 2.6.2).
 */
export function usagePage(rows: AccountPrediction[], days: DailyMinutes[], windowDays: number): SafeHtml {
  const charged = days.reduce((sum, day) => sum + day.chargedMinutes, 0);
  const free = days.reduce((sum, day) => sum + day.freeMinutes, 0);
  return html`<p>The last ${windowDays} days: the same period in which repeating a transcription of the same link is free.</p>
<dl class="totals">
  <div><dt>Transcriptions</dt><dd>${rows.length}</dd></div>
  <div><dt>Minutes charged</dt><dd>${charged.toFixed(1)}</dd></div>
  <div><dt>Minutes of free repeats</dt><dd>${free.toFixed(1)}</dd></div>
</dl>
<h2>Audio minutes per day</h2>
${usageChart(days)}
<h2>Transcriptions</h2>
${rows.length === 0 ? html`<p>Nothing yet. <a href="/portal/transcribe">Transcribe a recording</a> or use your API key.</p>` : predictionTable(rows)}`;
}

function predictionTable(rows: AccountPrediction[]): SafeHtml {
  const body = rows.map(
    (row) => html`<tr>
  <td><a href="/portal/predictions/${row.id}">${formatDateTime(row.createdAt)}</a></td>
  <td>${describeAudio(row.audio)}</td>
  <td>${describeNamespace(row.namespace)}</td>
  <td><span class="status status-${row.status}">${row.status}</span></td>
  <td>${row.audioSeconds === null ? '—' : formatDuration(row.audioSeconds)}</td>
  <td>${describeCharge(row)}</td>
</tr>`,
  );
  return html`<div class="table-scroll" role="region" aria-label="Transcriptions" tabindex="0"><table class="usage">
<thead><tr><th scope="col">Created</th><th scope="col">Recording</th><th scope="col">Made in</th><th scope="col">Status</th><th scope="col">Audio</th><th scope="col">Charge</th></tr></thead>
<tbody>${body}</tbody></table></div>`;
}

/** `free repeat`, `1.50 (0:11 charged)`, `0:11 charged` (no price set), or `not charged`. */
function describeCharge(row: AccountPrediction): string {
  if (!row.charge) return row.status === 'processing' ? '—' : 'not charged';
  if (row.charge.reason === 'free_repeat') return 'free repeat';
  const length = `${formatDuration(row.charge.audioSeconds)} charged`;
  return row.charge.amount > 0 ? `${row.charge.amount.toFixed(2)} (${length})` : length;
}
