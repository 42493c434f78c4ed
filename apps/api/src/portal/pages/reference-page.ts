import { html, type SafeHtml } from '../html.ts';

type Json = Record<string, unknown>;

/**
 * The API reference: the OpenAPI document (`/openapi.json`) rendered as one page, operations
 * grouped by tag, then the schemas with their members.
 */
export function referencePage(document: Json, rootUrl: string): SafeHtml {
  const paths = document.paths as Record<string, Record<string, Json>>;
  const tags = (document.tags as { name: string; description: string }[]).map((tag) => {
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => (op.tags as string[]).includes(tag.name))
        .map(([method, op]) => operation(method, path, op)),
    );
    return html`<section aria-labelledby="tag-${slug(tag.name)}"><h2 id="tag-${slug(tag.name)}">${tag.name}</h2><p>${tag.description}</p>${operations}</section>`;
  });
  const schemas = Object.entries((document.components as { schemas: Record<string, Json> }).schemas).map(([name, schema]) =>
    schemaSection(name, schema),
  );
  return html`<p>${String((document.info as Json).description)}</p>
<ul>
  <li>Base address for curl and the npm client: <code>${rootUrl}/v1/replicate/v1</code>; for the Python client: <code>${rootUrl}/v1/replicate</code>.</li>
  <li>Every request sends <code>Authorization: Bearer &lt;API key&gt;</code>. <a href="/portal/api">Get your key</a>.</li>
  <li>The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${String(document.openapi)}).</li>
</ul>
<nav aria-label="Reference contents"><ul class="inline-list">${(document.tags as { name: string }[]).map((tag) => html`<li><a href="#tag-${slug(tag.name)}">${tag.name}</a></li>`)}<li><a href="#schemas">Schemas</a></li></ul></nav>
${tags}
<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>${schemas}</section>`;
}

function operation(method: string, path: string, op: Json): SafeHtml {
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody as { content: Record<string, { schema: Json }> } | undefined;
  const responses = Object.entries(op.responses as Record<string, Json>);
  return html`<article class="operation" id="op-${String(op.operationId)}">
<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
<p>${String(op.summary)}</p>${op.description ? html`<p class="hint">${String(op.description)}</p>` : ''}
${parameters.length > 0 ? html`<h4>Parameters</h4><ul>${parameters.map((param) => html`<li><code>${String(param.name)}</code> (${String(param.in)}${param.required ? ', required' : ''}) – ${String(param.description ?? '')}</li>`)}</ul>` : ''}
${body ? html`<h4>Request body</h4><ul>${Object.entries(body.content).map(([type, media]) => html`<li><code>${type}</code>: ${typeName(media.schema)}</li>`)}</ul>` : ''}
<h4>Responses</h4><ul>${responses.map(([status, response]) => html`<li><strong>${status}</strong> ${String(response.description)}${responseType(response)}</li>`)}</ul>
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

function schemaSection(name: string, schema: Json): SafeHtml {
  const properties = Object.entries((schema.properties as Record<string, Json> | undefined) ?? {});
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = properties.map(
    ([member, property]) =>
      html`<tr><td><code>${member}</code>${required.has(member) ? html` <span class="hint">required</span>` : ''}</td><td>${typeName(property)}</td><td>${describe(property)}</td></tr>`,
  );
  return html`<section class="schema" id="schema-${name}"><h3>${name}</h3>${schema.description ? html`<p>${String(schema.description)}</p>` : ''}
${rows.length > 0 ? html`<div class="table-scroll" role="region" aria-label="${name} members" tabindex="0"><table><thead><tr><th scope="col">Member</th><th scope="col">Type</th><th scope="col">Notes</th></tr></thead><tbody>${rows}</tbody></table></div>` : ''}</section>`;
}

function describe(property: Json): string {
  const notes: string[] = [];
  if (property.description) notes.push(String(property.description));
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
