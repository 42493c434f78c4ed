import type { PredictionInput, PredictionRow, Transcript } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalProgress } from '../describe-portal-progress.ts';
import { describeAudio, formatDateTime, formatDuration, formatTimestamp } from './format.ts';

/** Download formats of a transcript (spec 2.2 output_format) and their file names. */
export const DOWNLOADS: { format: 'json' | 'json2' | 'text' | 'srt' | 'lrc'; label: string; extension: string }[] = [
  { format: 'text', label: 'Text', extension: 'txt' },
  { format: 'srt', label: 'SRT subtitles', extension: 'srt' },
  { format: 'lrc', label: 'LRC', extension: 'lrc' },
  { format: 'json', label: 'JSON', extension: 'json' },
  { format: 'json2', label: 'JSON2', extension: 'json2.json' },
];

/**
 * One transcription: its progress while running (portal.js follows `progress.json` and reloads at
 * the end), then the transcript with speakers and times, the post-processing results, and a
 * download of every format. A failed one says "Failed" with its error, a canceled one says so;
 * while it waits or runs there is a Cancel button (a POST carrying `csrfToken`).
 */
export function predictionPage(row: PredictionRow, progress: PortalProgress, csrfToken: string): SafeHtml {
  const params = row.params as PredictionInput;
  return html`<p class="meta">${describeAudio(params.audio)} · started ${formatDateTime(row.createdAt)}${row.audioSeconds ? ` · ${formatDuration(row.audioSeconds)} of audio` : ''}</p>
${progress.done ? '' : progressSection(row.id, progress)}
${progress.done ? '' : cancelForm(row.id, csrfToken)}
${row.status === 'failed' ? html`<div class="notice error" role="alert"><p><strong>Failed:</strong> ${row.error ?? 'the transcription failed.'}</p><p><a href="/portal/transcribe">Try another recording</a></p></div>` : ''}
${row.status === 'canceled' ? html`<div class="notice" role="status"><p>Canceled: this recording was not transcribed.</p><p><a href="/portal/transcribe">Transcribe a recording</a></p></div>` : ''}
${row.status === 'succeeded' && row.transcript ? finished(row) : ''}`;
}

/** The running transcription's stage and bar; portal.js polls `progress.json` and reloads at the end. */
function progressSection(id: string, progress: PortalProgress): SafeHtml {
  return html`<section id="progress" class="progress-block" data-progress-url="/portal/predictions/${id}/progress.json" data-done="0" aria-labelledby="progress-label">
  <span id="progress-label" class="stage" aria-live="polite">${progress.stage}</span>
  <progress id="progress-bar" max="100" value="${progress.percent}" aria-labelledby="progress-label"></progress>
</section>`;
}

/** The Cancel button of a waiting or running transcription. */
function cancelForm(id: string, csrfToken: string): SafeHtml {
  return html`<form method="post" action="/portal/predictions/${id}/cancel" class="cancel-form">
  <input type="hidden" name="csrf" value="${csrfToken}">
  <button type="submit" class="secondary">Cancel</button>
</form>`;
}

function finished(row: PredictionRow): SafeHtml {
  const transcript = row.transcript as Transcript;
  const results = (row.results ?? {}) as Record<string, unknown>;
  const downloads = DOWNLOADS.map(
    (item) =>
      html`<li><a href="/portal/predictions/${row.id}/download/${item.format}" download>${item.label} <span class="hint">(.${item.extension})</span></a></li>`,
  );
  if (Object.keys(results).length > 0)
    downloads.push(
      html`<li><a href="/portal/predictions/${row.id}/download/results" download>Post-processing results <span class="hint">(.json)</span></a></li>`,
    );
  return html`<h2>Downloads</h2><ul class="downloads">${downloads}</ul>
${Object.keys(results).length > 0 ? resultsSection(results) : ''}
<h2>Transcript</h2>
${speakerSummary(transcript)}
${transcript.segments.length === 0 ? html`<p>No speech was found in this recording.</p>` : segmentList(transcript)}`;
}

function speakerSummary(transcript: Transcript): SafeHtml | '' {
  if (transcript.speakers.length === 0) return '';
  const items = transcript.speakers.map((speaker) => html`<li>${speaker.label}: ${formatDuration(speaker.duration)}</li>`);
  return html`<p class="meta">Speakers:</p><ul class="inline-list">${items}</ul>`;
}

function segmentList(transcript: Transcript): SafeHtml {
  const items = transcript.segments.map(
    (segment) => html`<li class="segment">
  <p class="segment-head"><time datetime="PT${segment.start.toFixed(1)}S">${formatTimestamp(segment.start)}</time>–<time datetime="PT${segment.end.toFixed(1)}S">${formatTimestamp(segment.end)}</time>${segment.speaker ? html` <span class="speaker">${segment.speaker}</span>` : ''}</p>
  <p class="segment-text">${segment.text}</p>
</li>`,
  );
  return html`<ol class="transcript">${items}</ol>`;
}

function resultsSection(results: Record<string, unknown>): SafeHtml {
  const items = Object.entries(results).map(
    ([type, value]) =>
      html`<section class="result"><h3><code>${type}</code></h3>${typeof value === 'string' ? html`<div class="result-text">${value}</div>` : html`<pre tabindex="0"><code>${JSON.stringify(value, null, 2)}</code></pre>`}</section>`,
  );
  return html`<h2>Post-processing</h2>${items}`;
}
