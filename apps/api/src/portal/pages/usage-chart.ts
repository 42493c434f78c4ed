import type { DailyMinutes } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import { formatNumber } from './format.ts';

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44;
const BOTTOM = 28;
const TOP = 12;

/**
 * An SVG bar chart of audio minutes per day (charged and free repeats stacked), drawn on the
 * server, with the same numbers as a table for screen readers and keyboard users; words and
 * numbers in the reader's language.
 */
export function usageChart(days: DailyMinutes[], reader: PortalReader): SafeHtml {
  const { t } = reader;
  const peak = niceCeiling(Math.max(0, ...days.map((day) => day.chargedMinutes + day.freeMinutes)));
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const y = (minutes: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - minutes / peak);
  const bars = days.map((day, index) => {
    const x = LEFT + index * slot + slot * 0.15;
    const width = slot * 0.7;
    const chargedTop = y(day.chargedMinutes);
    const freeTop = y(day.chargedMinutes + day.freeMinutes);
    const charged = formatNumber(day.chargedMinutes, 2, reader);
    const free = formatNumber(day.freeMinutes, 2, reader);
    return html`<g><title>${t('portal-chart-day', { day: day.day, charged, free })}</title>
<rect class="bar-charged" x="${x.toFixed(1)}" y="${chargedTop.toFixed(1)}" width="${width.toFixed(1)}" height="${(y(0) - chargedTop).toFixed(1)}"></rect>
<rect class="bar-free" x="${x.toFixed(1)}" y="${freeTop.toFixed(1)}" width="${width.toFixed(1)}" height="${(chargedTop - freeTop).toFixed(1)}"></rect></g>`;
  });
  const labelAt = [0, Math.floor((days.length - 1) / 2), days.length - 1].filter((value, index, all) => all.indexOf(value) === index);
  const labels = labelAt.map((index) => {
    const anchor = index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle';
    const x = anchor === 'start' ? LEFT + index * slot : anchor === 'end' ? LEFT + (index + 1) * slot : LEFT + index * slot + slot / 2;
    return html`<text class="axis" x="${x.toFixed(1)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${days[index]?.day.slice(5) ?? ''}</text>`;
  });
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMidYMid meet">
<title id="chart-title">${t('portal-usage-per-day')}</title>
<desc id="chart-desc">${describeChart(days, reader)}</desc>
<line class="axis-line" x1="${LEFT}" y1="${y(0)}" x2="${WIDTH}" y2="${y(0)}"></line>
<line class="grid-line" x1="${LEFT}" y1="${y(peak)}" x2="${WIDTH}" y2="${y(peak)}"></line>
<text class="axis" x="${LEFT - 6}" y="${y(peak) + 4}" text-anchor="end">${peak}</text>
<text class="axis" x="${LEFT - 6}" y="${y(0) + 4}" text-anchor="end">0</text>
${bars}${labels}
</svg>
<figcaption><span class="key key-charged" aria-hidden="true"></span> ${t('portal-chart-key-charged')} <span class="key key-free" aria-hidden="true"></span> ${t('portal-chart-key-free')} · ${t('portal-chart-utc')}</figcaption>
</figure>
<details><summary>${t('portal-chart-table')}</summary>${dayTable(days, reader)}</details>`;
}

function dayTable(days: DailyMinutes[], reader: PortalReader): SafeHtml {
  const { t } = reader;
  const rows = days
    .filter((day) => day.chargedMinutes + day.freeMinutes > 0)
    .map(
      (day) =>
        html`<tr><td>${day.day}</td><td>${formatNumber(day.chargedMinutes, 2, reader)}</td><td>${formatNumber(day.freeMinutes, 2, reader)}</td></tr>`,
    );
  if (rows.length === 0) return html`<p>${t('portal-chart-no-audio')}</p>`;
  return html`<div class="table-scroll" role="region" aria-label="${t('portal-usage-per-day')}" tabindex="0"><table>
<thead><tr><th scope="col">${t('portal-chart-col-day')}</th><th scope="col">${t('portal-chart-col-charged')}</th><th scope="col">${t('portal-chart-col-free')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function describeChart(days: DailyMinutes[], reader: PortalReader): string {
  const charged = days.reduce((sum, day) => sum + day.chargedMinutes, 0);
  const free = days.reduce((sum, day) => sum + day.freeMinutes, 0);
  return reader.t('portal-chart-desc', {
    first: days[0]?.day ?? '',
    last: days.at(-1)?.day ?? '',
    charged: formatNumber(charged, 2, reader),
    free: formatNumber(free, 2, reader),
  });
}

/** The smallest of 1, 2, 5 × 10^n at or above `value` (1 for an empty chart). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value - 1e-9) ?? 10;
  return Number((step * power).toPrecision(6));
}
