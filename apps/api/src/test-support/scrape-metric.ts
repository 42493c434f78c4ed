/**
 * The value of one series in the Prometheus text format `text`, e.g.
 * `transcribe_llm_calls_total{outcome="ok"}` (labels exactly as prom-client writes them, in
 * declaration order); 0 when the series is absent (a counter never incremented is not written).
 */
export function readMetric(text: string, series: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * Scrapes `GET {serviceUrl}/metrics` (no token) and returns the values of `series`, in order.
 * @throws Error when the answer is not 200.
 */
export async function scrapeMetrics(serviceUrl: string, ...series: string[]): Promise<number[]> {
  const answer = await fetch(`${serviceUrl}/metrics`);
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
  const text = await answer.text();
  return series.map((name) => readMetric(text, name));
}
