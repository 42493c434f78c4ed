/** Shared formatting of the portal's pages (times in UTC, lengths in m:ss). */
import type { QueuePlace } from '@transcribe/core';
import type { PortalReader, PortalTranslate } from '../portal-i18n.ts';

/** `2026-03-10 12:04 UTC`. */
export function formatDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Seconds as `m:ss` (`h:mm:ss` from an hour): 11.05 → `0:11`. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Seconds as a transcript time label `mm:ss.s` (`1:02:03.4` from an hour). */
export function formatTimestamp(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const h = Math.floor(tenths / 36000);
  const m = Math.floor((tenths % 36000) / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${String(m).padStart(2, '0')}:${s}`;
}

/** Where a prediction was made (spec 2.6.6 namespaces), in words. */
export function describeNamespace(namespace: string, t: PortalTranslate): string {
  return ['portal', 'api', 'bot'].includes(namespace) ? t(`portal-place-${namespace}`) : namespace;
}

/** A prediction's status (spec 3) in words: `succeeded` → `succeeded`, `готово`. */
export function describeStatus(status: string, t: PortalTranslate): string {
  return ['processing', 'starting', 'succeeded', 'failed', 'canceled'].includes(status) ? t(`portal-state-${status}`) : status;
}

/** The recording of a prediction in words: `upload:talk.wav` → `talk.wav`, `live:sess_…` → `Live session`; a link stays a link. */
export function describeAudio(audio: string, t: PortalTranslate): string {
  if (audio.startsWith('live:')) return t('portal-live-session');
  if (audio.startsWith('upload:')) return audio.slice('upload:'.length) || t('portal-uploaded-file');
  if (audio.startsWith('data:')) return t('portal-inline-data');
  return audio.length > 80 ? `${audio.slice(0, 77)}…` : audio;
}

/** A number with `digits` decimals in the reader's notation: `1.5`, `1,5`. */
export function formatNumber(value: number, digits: number, { locale }: PortalReader): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);
}

/**
 * A waiting prediction's place and wait in the reader's words (`3 recordings ahead, about 2
 * minutes`, `впереди: 3, около 2 мин`), from the API's `queue` member; rounded as people say it.
 */
export function describeQueuePlace(place: QueuePlace, { t }: PortalReader, nowMs = Date.now()): string {
  const ahead = place.position === 0 ? t('portal-queue-next') : t('portal-queue-ahead', { count: place.position });
  const seconds = (Date.parse(place.estimated_start_at) - nowMs) / 1000;
  const minutes = Math.round(seconds / 60);
  const wait =
    seconds < 60
      ? t('portal-queue-wait-soon')
      : minutes < 90
        ? t('portal-queue-wait-minutes', { minutes })
        : t('portal-queue-wait-hours', { hours: Math.round(minutes / 60) });
  return `${ahead}, ${wait}`;
}
