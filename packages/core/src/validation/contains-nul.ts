/**
 * True when any string in `value` (recursively, keys included) holds a NUL character, which
 * PostgreSQL text and jsonb cannot store (issue 9: hostile input must never cause a 500).
 */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}
