import { describe, expect, it } from 'vitest';
import { parseWebhookParams } from './parse-webhook-params.ts';

describe('parseWebhookParams', () => {
  it('should accept an https URL and both filter shapes', () => {
    expect(
      parseWebhookParams({ webhook: ' https://example.com/h ', webhook_events_filter: ['start', 'completed'] }, { allowHttp: false }),
    ).toEqual({
      webhook: 'https://example.com/h',
      webhookEventsFilter: ['start', 'completed'],
    });
    expect(parseWebhookParams({ webhook_events_filter: [['output', 'logs'], ['logs']] }, { allowHttp: false }).webhookEventsFilter).toEqual(
      ['output', 'logs'],
    );
    expect(parseWebhookParams({ webhook: null, webhook_events_filter: null }, { allowHttp: false })).toEqual({
      webhook: null,
      webhookEventsFilter: null,
    });
  });

  it('should take http only when private networks are allowed', () => {
    expect(() => parseWebhookParams({ webhook: 'http://example.com/h' }, { allowHttp: false })).toThrow(/must be an https:\/\/ URL/);
    expect(parseWebhookParams({ webhook: 'http://example.com/h' }, { allowHttp: true }).webhook).toBe('http://example.com/h');
  });

  it.each([['x'], [''], [1], ['javascript:alert(1)'], [`https://example.com/${'a'.repeat(2100)}`]])(
    'should refuse the webhook %j',
    (webhook) => {
      expect(() => parseWebhookParams({ webhook }, { allowHttp: true })).toThrow(/webhook must be/);
    },
  );

  it.each([['start'], [{}], [['start', 'bogus']], [[['start', ['completed']]]], [[1]]])('should refuse the filter %j', (filter) => {
    expect(() => parseWebhookParams({ webhook_events_filter: filter }, { allowHttp: true })).toThrow(
      /webhook_events_filter must be a list/,
    );
  });
});
