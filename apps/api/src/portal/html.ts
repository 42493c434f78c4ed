/**
 * HTML built from template literals with every interpolated value escaped, for the portal's
 * server-rendered pages. Only values already wrapped as SafeHtml (from `html` or `raw`) are
 * inserted as they are.
 */

/** A piece of HTML that is safe to insert: made by `html` or marked with `raw`. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Values an `html` template accepts: text (escaped), numbers, SafeHtml, lists of them; null/undefined/false → nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

/** Escapes `& < > " '` so text is safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Marks trusted markup (never user input) as safe. */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${name}</p>\`` with `name` escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}
