import type { PredictionRecording, PredictionRow, Transcript } from '@transcribe/core';
import { getSucceededTranscript, renameTranscriptSpeakers } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalProgress } from '../describe-portal-progress.ts';
import type { PortalReader } from '../portal-i18n.ts';
import { describeAudio, formatDateTime, formatDuration, formatTimestamp } from './format.ts';
import { postProcessLabel } from './transcribe-page.ts';

/** A download of a transcript: an API format (spec 2.2 output_format) or a document as the bot sends it. */
export type DownloadFormat = 'json' | 'json2' | 'text' | 'srt' | 'lrc' | 'docx' | 'pdf';

/** Download formats of a transcript, their catalog labels and file name extensions. */
export const DOWNLOADS: { format: DownloadFormat; label: string; extension: string }[] = [
  { format: 'text', label: 'portal-download-text', extension: 'txt' },
  { format: 'srt', label: 'portal-download-srt', extension: 'srt' },
  { format: 'docx', label: 'portal-download-docx', extension: 'docx' },
  { format: 'pdf', label: 'portal-download-pdf', extension: 'pdf' },
  { format: 'lrc', label: 'portal-download-lrc', extension: 'lrc' },
  { format: 'json', label: 'portal-download-json', extension: 'json' },
  { format: 'json2', label: 'portal-download-json2', extension: 'json2.json' },
];

/**
 * One transcription: its progress while running (portal.js follows `progress.json` and reloads at
 * the end), then the transcript with speakers and times, the post-processing results (with the
 * bot's labels), and a download of every format, .docx and .pdf too. A failed one says "Failed"
 * with its error, a canceled one says so; while it waits or runs there is a Cancel button (a POST
 * carrying `csrfToken`). `wait`: while it waits, its place and wait in words (portal.js follows
 * `queue.json`). In the reader's language. The speakers are shown with the names given in the portal
 * (`speaker_names`), each with a rename form (speakerSection).
 */
export function predictionPage(
  row: PredictionRow,
  progress: PortalProgress,
  csrfToken: string,
  wait: string | null,
  reader: PortalReader,
  speakers: SpeakerOptions = { recording: 'gone', notice: null },
): SafeHtml {
  const { t } = reader;
  const params = row.params;
  const meta = [
    describeAudio(params.audio, t),
    t('portal-started', { time: formatDateTime(row.createdAt) }),
    ...(row.audioSeconds ? [t('portal-of-audio', { duration: formatDuration(row.audioSeconds) })] : []),
  ].join(' · ');
  return html`<p class="meta">${meta}</p>
${progress.done ? '' : progressSection(row.id, progress, wait)}
${progress.done ? '' : cancelForm(row.id, csrfToken, reader)}
${row.status === 'failed' ? html`<div class="notice error" role="alert"><p><strong>${t('portal-failed')}</strong> ${row.error ?? t('portal-status-failed-unknown')}</p><p><a href="/portal/transcribe">${t('portal-try-another')}</a></p></div>` : ''}
${row.status === 'canceled' ? html`<div class="notice" role="status"><p>${t('portal-canceled-text')}</p><p><a href="/portal/transcribe">${t('portal-card-transcribe')}</a></p></div>` : ''}
${row.status === 'succeeded' && row.transcript ? finished(row, reader, csrfToken, speakers) : ''}`;
}

/** What the speaker forms need: whether the recording is still stored (so voices can be remembered), and what was just done. */
export interface SpeakerOptions {
  /** findPredictionRecording's verdict (links not probed): `stored` offers "Remember this voice". */
  recording: PredictionRecording['kind'];
  /** After a rename: the catalog key to say (`portal-renamed`, `portal-remembered`) and the name, else null. */
  notice: { key: string; name: string } | null;
}

/** The running transcription's stage and bar; portal.js polls `progress.json` and reloads at the end. */
function progressSection(id: string, progress: PortalProgress, wait: string | null): SafeHtml {
  return html`<section id="progress" class="progress-block" data-progress-url="/portal/predictions/${id}/progress.json" data-done="0" aria-labelledby="progress-label">
  <span id="progress-label" class="stage" aria-live="polite">${progress.stage}</span>
  <progress id="progress-bar" max="100" value="${progress.percent}" aria-labelledby="progress-label"></progress>
  <p id="queue-wait" class="hint" data-queue-url="/portal/predictions/${id}/queue.json"${wait === null ? ' hidden' : ''}>${wait ?? ''}</p>
</section>`;
}

/** The Cancel button of a waiting or running transcription. */
function cancelForm(id: string, csrfToken: string, { t }: PortalReader): SafeHtml {
  return html`<form method="post" action="/portal/predictions/${id}/cancel" class="cancel-form">
  <input type="hidden" name="csrf" value="${csrfToken}">
  <button type="submit" class="secondary">${t('portal-cancel')}</button>
</form>`;
}

function finished(row: PredictionRow, reader: PortalReader, csrfToken: string, speakers: SpeakerOptions): SafeHtml {
  const { t } = reader;
  const stored = getSucceededTranscript(row);
  const transcript = renameTranscriptSpeakers(stored, row.speakerNames);
  const results = (row.results ?? {}) as Record<string, unknown>;
  const downloads = DOWNLOADS.map(
    (item) =>
      html`<li><a href="/portal/predictions/${row.id}/download/${item.format}" download>${t(item.label)} <span class="hint">(.${item.extension})</span></a></li>`,
  );
  if (Object.keys(results).length > 0)
    downloads.push(
      html`<li><a href="/portal/predictions/${row.id}/download/results" download>${t('portal-download-results')} <span class="hint">(.json)</span></a></li>`,
    );
  return html`<h2>${t('portal-downloads')}</h2><ul class="downloads">${downloads}</ul>
${Object.keys(results).length > 0 ? resultsSection(results, reader) : ''}
<h2>${t('portal-prediction-transcript')}</h2>
${speakerSection(row, stored, csrfToken, speakers, reader)}
${transcript.segments.length === 0 ? html`<p>${t('portal-no-speech')}</p>` : segmentList(transcript, reader)}`;
}

/**
 * The speakers (names given in the portal shown), each with how long they talk and a rename form: a
 * POST of `label` (the stored transcript's label), `name` and, when the recording is still stored,
 * the "Remember this voice" box (else why voices cannot be remembered from it), with the CSRF token.
 */
function speakerSection(
  row: PredictionRow,
  stored: Transcript,
  csrfToken: string,
  options: SpeakerOptions,
  { t }: PortalReader,
): SafeHtml | '' {
  if (stored.speakers.length === 0) return '';
  const names = row.speakerNames ?? {};
  const canRemember = options.recording === 'stored';
  const items = stored.speakers.map((speaker, index) => {
    const shown = names[speaker.label] ?? speaker.label;
    const id = `speaker-${index + 1}`;
    return html`<li class="speaker-item"><p><span class="speaker">${shown}</span>${shown === speaker.label ? '' : html` <span class="hint">(${speaker.label})</span>`}: ${formatDuration(speaker.duration)}</p>
<form method="post" action="/portal/predictions/${row.id}/speakers" class="rename-form">
  <input type="hidden" name="csrf" value="${csrfToken}">
  <input type="hidden" name="label" value="${speaker.label}">
  <label for="${id}-name">${t('portal-rename-new-name', { label: shown })}</label>
  <input id="${id}-name" name="name" type="text" maxlength="64" required autocomplete="off" value="${shown === speaker.label ? '' : shown}">
  ${canRemember ? html`<label class="choice"><input type="checkbox" name="remember" value="1"> ${t('portal-rename-remember')}</label>` : ''}
  <button type="submit" class="secondary">${t('portal-rename-button')}</button>
</form></li>`;
  });
  const notice = options.notice
    ? html`<div class="notice success" role="status"><p>${t(options.notice.key, { name: options.notice.name })}</p></div>`
    : '';
  const why = canRemember
    ? ''
    : html`<p class="hint">${t(options.recording === 'upload' ? 'portal-rename-not-kept' : 'portal-rename-gone')}</p>`;
  return html`<section id="speakers" aria-labelledby="speakers-title"><h3 id="speakers-title">${t('portal-rename-title')}</h3>
${notice}<p class="hint">${t('portal-rename-intro')}</p>${why}
<ul class="speaker-list">${items}</ul></section>`;
}

/**
 * The segments with their times and speakers. A doubtful segment (flags, docs/formats.md "Flags") is
 * shaded (`segment doubtful`) and says why in its head (`portal-doubtful`, the flags named); a note
 * above the list explains the shading when any segment is doubtful.
 */
function segmentList(transcript: Transcript, { t }: PortalReader): SafeHtml {
  const items = transcript.segments.map((segment) => {
    const flags = segment.flags ?? [];
    const doubt = flags.length === 0 ? '' : html` <span class="doubt" title="${flags.join(', ')}">${t('portal-doubtful')}</span>`;
    return html`<li class="${flags.length === 0 ? 'segment' : 'segment doubtful'}">
  <p class="segment-head"><time datetime="PT${segment.start.toFixed(1)}S">${formatTimestamp(segment.start)}</time>–<time datetime="PT${segment.end.toFixed(1)}S">${formatTimestamp(segment.end)}</time>${segment.speaker ? html` <span class="speaker">${segment.speaker}</span>` : ''}${doubt}</p>
  <p class="segment-text">${segment.text}</p>
</li>`;
  });
  const note = transcript.segments.some((segment) => (segment.flags?.length ?? 0) > 0)
    ? html`<p class="meta">${t('portal-doubtful-note')}</p>`
    : '';
  return html`${note}<ol class="transcript">${items}</ol>`;
}

/** Post-processing results under the bot's labels (`Summary`), the spec name kept for the API's readers. */
function resultsSection(results: Record<string, unknown>, reader: PortalReader): SafeHtml {
  const items = Object.entries(results).map(
    ([type, value]) =>
      html`<section class="result"><h3>${postProcessLabel(type, reader)} <span class="hint"><code>${type}</code></span></h3>${typeof value === 'string' ? html`<div class="result-text">${value}</div>` : html`<pre tabindex="0"><code>${JSON.stringify(value, null, 2)}</code></pre>`}</section>`,
  );
  return html`<h2>${reader.t('portal-post-processing-results')}</h2>${items}`;
}
