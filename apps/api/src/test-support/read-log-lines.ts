/** One line of the service's structured log (pino JSON): `level`, `time`, `msg`, `component`, … */
export type LogLine = Record<string, unknown> & { msg?: string; component?: string };

/**
 * The JSON lines of a process's output (its structured log), in order; other lines (a CLI's plain
 * text, a stack trace on stderr) are skipped.
 * @example
 * expect(logLines(service.output()).some((line) => line.component === 'service' && /^listening on/.test(line.msg ?? ''))).toBe(true);
 */
export function logLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of output.split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) lines.push(parsed as LogLine);
    } catch {
      // a partial line still being written, or not JSON
    }
  }
  return lines;
}

/**
 * The log lines of `component` whose `msg` matches `msg` (a RegExp, or a string the message must
 * contain).
 */
export function findLogLines(output: string, component: string, msg: RegExp | string): LogLine[] {
  const matches = (text: string) => (typeof msg === 'string' ? text.includes(msg) : msg.test(text));
  return logLines(output).filter((line) => line.component === component && matches(String(line.msg ?? '')));
}
