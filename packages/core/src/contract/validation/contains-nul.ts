/**
 * True when any string in `value` (at any depth, keys included) holds a NUL character, which
 * PostgreSQL text and jsonb cannot store (hostile input must never cause a 500). Walks with an explicit
 * stack instead of recursion, so a value nested thousands of levels deep cannot overflow the call
 * stack (a `RangeError` that used to become a 500); time and memory are linear in the value's size.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) stack.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
