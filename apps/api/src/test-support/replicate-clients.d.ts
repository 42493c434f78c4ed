// The two pinned versions of the npm `replicate` client are installed under aliases; their own
// declarations name the module 'replicate', so the parts the tests use are declared here.
interface ReplicateClientOptions {
  auth: string;
  baseUrl?: string;
  userAgent?: string;
  fetch?: typeof fetch;
}

interface ReplicatePrediction {
  id: string;
  status: string;
  output: unknown;
  error: unknown;
  logs?: string;
  urls: Record<string, string>;
  [key: string]: unknown;
}

interface ReplicateClient {
  run(identifier: string, options: { input: object; wait?: unknown; webhook?: string }): Promise<unknown>;
  predictions: {
    create(options: Record<string, unknown>): Promise<ReplicatePrediction>;
    get(id: string): Promise<ReplicatePrediction>;
    cancel(id: string): Promise<ReplicatePrediction>;
    list(): Promise<{ results: ReplicatePrediction[]; next: string | null; previous: string | null }>;
  };
  wait(prediction: ReplicatePrediction, options?: { interval?: number }): Promise<ReplicatePrediction>;
  paginate(endpoint: () => Promise<unknown>): AsyncGenerator<ReplicatePrediction[]>;
}

declare module 'replicate-0.31' {
  const Replicate: new (options: ReplicateClientOptions) => ReplicateClient;
  export default Replicate;
}

declare module 'replicate-1.4' {
  const Replicate: new (options: ReplicateClientOptions) => ReplicateClient;
  export default Replicate;
}
