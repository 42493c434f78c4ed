import { describe, expect, it } from 'vitest';
import { wantsWebhookEvent } from './wants-webhook-event.ts';
import { completedJobId, freshWebhookId, stableWebhookId } from './webhook-ids.ts';

describe('webhook ids', () => {
  it('should give the same id to every retry of a once-only event and different ids to others', () => {
    expect(stableWebhookId('abc', 'completed')).toBe(stableWebhookId('abc', 'completed'));
    expect(stableWebhookId('abc', 'completed')).not.toBe(stableWebhookId('abc', 'start'));
    expect(stableWebhookId('abc', 'completed')).not.toBe(stableWebhookId('abd', 'completed'));
    expect(freshWebhookId('abc', 'logs')).not.toBe(freshWebhookId('abc', 'logs'));
  });

  it('should derive one valid UUID job id per prediction', () => {
    const id = completedJobId('p8x2k');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(completedJobId('p8x2k')).toBe(id);
    expect(completedJobId('p8x2l')).not.toBe(id);
  });
});

describe('wantsWebhookEvent', () => {
  it('should send logs and completed only when no filter was given (spec 6.1)', () => {
    const row = { webhook: 'https://hooks.example.invalid/hook', webhookEventsFilter: null };
    expect((['start', 'output', 'logs', 'completed'] as const).filter((event) => wantsWebhookEvent(row, event))).toEqual([
      'logs',
      'completed',
    ]);
  });

  it('should send only the events of the filter', () => {
    const row = { webhook: 'https://hooks.example.invalid/hook', webhookEventsFilter: ['completed'] };
    expect(wantsWebhookEvent(row, 'completed')).toBe(true);
    expect(wantsWebhookEvent(row, 'start')).toBe(false);
    expect(wantsWebhookEvent(row, 'logs')).toBe(false);
  });

  it('should send nothing without a webhook', () => {
    expect(wantsWebhookEvent({ webhook: null, webhookEventsFilter: null }, 'completed')).toBe(false);
  });
});
