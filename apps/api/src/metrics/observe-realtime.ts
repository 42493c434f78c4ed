import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RealtimeObserver } from '../realtime/attach-realtime-server.ts';

/**
 * The Prometheus metrics of live transcription (docs/live.md), registered in the service's registry:
 * `transcribe_live_sessions_open` (gauge), `transcribe_live_audio_seconds_total` (counter, counted
 * when a session ends) and `transcribe_live_turn_latency_seconds` (histogram: from the end of a turn,
 * `speech_stopped` or the client's commit, to its `completed`).
 */
export function observeRealtime(registry: Registry): RealtimeObserver {
  const open = new Gauge({ name: 'transcribe_live_sessions_open', help: 'Live transcription sessions open now.', registers: [registry] });
  const audio = new Counter({
    name: 'transcribe_live_audio_seconds_total',
    help: 'Seconds of audio received by live sessions that ended.',
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'transcribe_live_turn_latency_seconds',
    help: 'Seconds from the end of a live turn (speech_stopped or commit) to its completed event.',
    buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
    registers: [registry],
  });
  return {
    sessionOpened: () => open.inc(),
    sessionClosed: (seconds) => {
      open.dec();
      audio.inc(seconds);
    },
    turnDone: (_seconds, latencySeconds) => latency.observe(latencySeconds),
  };
}
