import OpenAI from 'openai';
import { createOutboundFetch } from '../../platform/http/create-outbound-fetch.ts';
import type { LlmClientConfig } from './llm-client-config.ts';

/**
 * The `openai` client for an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp server).
 * Its requests go through the outbound agent (platform/http, the SDK's `fetch` option), without
 * the private-network check: the endpoint is the operator's and usually local. The client's own
 * retries are off (`maxRetries: 0`): completeChat retries through the one retry policy
 * (retryHttpCall), which never retries a 4xx other than 408/429 and caps `Retry-After`, and counts
 * the attempts it names in its messages. Every request still has the client's `timeout` of `config.timeoutMs`. Organization and project are set to
 * null so the client does not pick them up from the environment.
 */
export function createChatClient(config: LlmClientConfig): OpenAI {
  return new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey === '' ? 'unused' : config.apiKey,
    organization: null,
    project: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
    fetch: createOutboundFetch(),
  });
}
