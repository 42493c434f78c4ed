import type { Agent } from 'undici';
import { createOutboundAgent } from './create-outbound-agent.ts';
import type { OutboundAgentOptions } from './create-outbound-agent.ts';

/** A WHATWG `fetch` whose connections all go through one outbound agent. */
export type OutboundFetch = typeof globalThis.fetch;

/**
 * A `fetch` (same signature as the global one) that sends every request through `agent`, or
 * through a new {@link createOutboundAgent} built from `options`: hand it to SDKs (the openai
 * client's `fetch` option) and use it for plain downloads, so that every outbound request of the
 * service goes through the one agent and its checks. It is Node's global fetch with the agent as
 * its `dispatcher`, not undici's own fetch: the SDKs build their bodies with the global FormData
 * and File classes, which undici's fetch would not recognise (it would send "[object FormData]").
 */
export function createOutboundFetch(agentOrOptions: Agent | OutboundAgentOptions = {}): OutboundFetch {
  const agent = 'dispatch' in agentOrOptions ? agentOrOptions : createOutboundAgent(agentOrOptions);
  return (input, init) => globalThis.fetch(input, { ...init, dispatcher: agent } as unknown as RequestInit);
}
