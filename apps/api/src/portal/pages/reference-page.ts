import { html, type SafeHtml } from '../html.ts';
import type { PortalReader, PortalTranslate } from '../portal-i18n.ts';
import { clientBaseUrls } from './client-examples.ts';
import { withHtml } from './home-pages.ts';

type Json = Record<string, unknown>;

/**
 * A text of the API document without references to the service's internal contract (`(spec 4.1)`,
 * `spec 2.5 code`): those sections are not published, so a reader could not follow them.
 */
export function withoutSpecReferences(text: string): string {
  return text
    .replace(/\(spec [\d.]+: ([^()]*)\)/g, '($1)')
    .replace(/, spec [\d.]+\)/g, ')')
    .replace(/\s*\(spec [^():]*\)/g, '')
    .replace(/a spec 2\.5 code/g, 'a language code')
    .replace(/ of spec 2\.5\b/g, ' of the list of languages')
    .replace(/\s?\b(?:of )?spec \d+(?:\.\d+)*(?: rule \d+)?/g, '');
}

/**
 * The API reference: the OpenAPI document (`/openapi.json`) rendered as one page, operations
 * grouped by tag, then the schemas with their members. The page's own words are in the reader's
 * language; the document's descriptions stay as written (English), without internal spec
 * section numbers (withoutSpecReferences).
 */
export function referencePage(document: Json, rootUrl: string, reader: PortalReader): SafeHtml {
  const { t } = reader;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const tagList = document.tags as { name: string; description: string }[];
  const tags = tagList.map((tag) => {
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => (op.tags as string[]).includes(tag.name))
        .map(([method, op]) => operation(method, path, op, t)),
    );
    const name = withoutSpecReferences(tag.name);
    return html`<section aria-labelledby="tag-${slug(name)}"><h2 id="tag-${slug(name)}">${name}</h2><p>${withoutSpecReferences(tag.description)}</p>${operations}</section>`;
  });
  const schemas = Object.entries((document.components as { schemas: Record<string, Json> }).schemas).map(([name, schema]) =>
    schemaSection(name, schema, t),
  );
  const bases = clientBaseUrls(rootUrl);
  const code = (text: string) => html`<code>${text}</code>`;
  // Each base URL set in <code> where the sentence names it (Fluent never makes the marker characters).
  const markers: [string, string][] = [
    ['\u0001', bases.python],
    ['\u0002', bases.npm],
    ['\u0003', bases.openai],
  ];
  let basesLine: (string | SafeHtml)[] = [t('portal-reference-bases', { python: '\u0001', npm: '\u0002', openai: '\u0003' })];
  for (const [marker, url] of markers) {
    basesLine = basesLine.flatMap((part) =>
      typeof part === 'string' ? part.split(marker).flatMap((piece, index) => (index === 0 ? [piece] : [code(url), piece])) : [part],
    );
  }
  return html`<p>${withoutSpecReferences(String((document.info as Json).description))}</p>
<ul>
  <li>${basesLine}</li>
  <li>${withHtml(t('portal-reference-auth', { header: '\u0000' }), code('Authorization: Bearer <API key>'))} <a href="/portal/api">${t('portal-reference-get-key')}</a>.</li>
  <li>${t('portal-reference-document')} <a href="/openapi.json">/openapi.json</a> (OpenAPI ${String(document.openapi)}).</li>
  ${reader.locale === 'en' ? '' : html`<li>${t('portal-reference-english')}</li>`}
</ul>
<nav aria-label="${t('portal-reference-contents')}"><ul class="inline-list">${tagList.map((tag) => html`<li><a href="#tag-${slug(withoutSpecReferences(tag.name))}">${withoutSpecReferences(tag.name)}</a></li>`)}<li><a href="#schemas">${t('portal-reference-schemas')}</a></li></ul></nav>
${tags}
<section aria-labelledby="schemas"><h2 id="schemas">${t('portal-reference-schemas')}</h2>${schemas}</section>`;
}

function operation(method: string, path: string, op: Json, t: PortalTranslate): SafeHtml {
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody as { content: Record<string, { schema: Json }> } | undefined;
  const responses = Object.entries(op.responses as Record<string, Json>);
  return html`<article class="operation" id="op-${String(op.operationId)}">
<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
<p>${withoutSpecReferences(String(op.summary))}</p>${op.description ? html`<p class="hint">${withoutSpecReferences(String(op.description))}</p>` : ''}
${parameters.length > 0 ? html`<h4>${t('portal-reference-parameters')}</h4><ul>${parameters.map((param) => html`<li><code>${String(param.name)}</code> (${String(param.in)}${param.required ? `, ${t('portal-reference-required')}` : ''}) – ${withoutSpecReferences(String(param.description ?? ''))}</li>`)}</ul>` : ''}
${body ? html`<h4>${t('portal-reference-body')}</h4><ul>${Object.entries(body.content).map(([type, media]) => html`<li><code>${type}</code>: ${typeName(media.schema)}</li>`)}</ul>` : ''}
<h4>${t('portal-reference-responses')}</h4><ul>${responses.map(([status, response]) => html`<li><strong>${status}</strong> ${withoutSpecReferences(String(response.description))}${responseType(response)}</li>`)}</ul>
</article>`;
}

function responseType(response: Json): SafeHtml | '' {
  const content = response.content as Record<string, { schema: Json }> | undefined;
  if (!content) return '';
  const [type, media] = Object.entries(content)[0] ?? [];
  return type && media ? html` – <code>${type}</code> ${typeName(media.schema)}` : '';
}

function typeName(schema: Json): SafeHtml {
  const target = schema.$ref as string | undefined;
  if (target) {
    const name = target.split('/').at(-1) ?? target;
    return html`<a href="#schema-${name}">${name}</a>`;
  }
  return html`${Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any')}`;
}

function schemaSection(name: string, schema: Json, t: PortalTranslate): SafeHtml {
  const properties = Object.entries((schema.properties as Record<string, Json> | undefined) ?? {});
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = properties.map(
    ([member, property]) =>
      html`<tr><td><code>${member}</code>${required.has(member) ? html` <span class="hint">${t('portal-reference-required')}</span>` : ''}</td><td>${typeName(property)}</td><td>${describe(property)}</td></tr>`,
  );
  return html`<section class="schema" id="schema-${name}"><h3>${name}</h3>${schema.description ? html`<p>${withoutSpecReferences(String(schema.description))}</p>` : ''}
${rows.length > 0 ? html`<div class="table-scroll" role="region" aria-label="${name}" tabindex="0"><table><thead><tr><th scope="col">${t('portal-reference-member')}</th><th scope="col">${t('portal-reference-type')}</th><th scope="col">${t('portal-reference-notes')}</th></tr></thead><tbody>${rows}</tbody></table></div>` : ''}</section>`;
}

function describe(property: Json): string {
  const notes: string[] = [];
  if (property.description) notes.push(withoutSpecReferences(String(property.description)));
  const values = (property.enum ?? (property.items as Json | undefined)?.enum) as unknown[] | undefined;
  if (values) notes.push(`One of: ${values.map((value) => (value === null ? 'null' : String(value))).join(', ')}.`);
  if (property.const !== undefined) notes.push(`Always ${String(property.const)}.`);
  if (property.default !== undefined) notes.push(`Default ${String(property.default)}.`);
  if (property.minimum !== undefined)
    notes.push(`At least ${String(property.minimum)}${property.maximum !== undefined ? `, at most ${String(property.maximum)}` : ''}.`);
  if (property.maxItems !== undefined) notes.push(`At most ${String(property.maxItems)} items.`);
  return notes.join(' ');
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
