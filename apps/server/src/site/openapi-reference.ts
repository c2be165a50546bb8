/** Markdown reference of the REST operations, generated from the same OpenAPI document /openapi.json serves. */

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function resolve(document: Json, schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop() ?? '';
  return asRecord(asRecord(asRecord(document.components).schemas)[name]);
}

function typeOf(document: Json, schema: Json): string {
  const resolved = resolve(document, schema);
  if (typeof schema.$ref === 'string') return String(schema.$ref).split('/').pop() ?? 'object';
  if (Array.isArray(resolved.enum)) return resolved.enum.map((value) => `\`${String(value)}\``).join(' \\| ');
  if (resolved.type === 'array') return `array of ${typeOf(document, asRecord(resolved.items))}`;
  if (Array.isArray(resolved.anyOf)) return resolved.anyOf.map((option) => typeOf(document, asRecord(option))).join(' or ');
  const bounds: string[] = [];
  if (typeof resolved.minLength === 'number') bounds.push(`min ${resolved.minLength}`);
  if (typeof resolved.maxLength === 'number') bounds.push(`max ${resolved.maxLength}`);
  const format = typeof resolved.format === 'string' ? ` (${resolved.format})` : '';
  return `${String(resolved.type ?? 'any')}${format}${bounds.length ? `, ${bounds.join(', ')}` : ''}`;
}

function fieldsTable(document: Json, schemaIn: Json): string {
  const schema = resolve(document, schemaIn);
  const properties = asRecord(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const rows = Object.entries(properties).map(([name, property]) => {
    const description = String(asRecord(resolve(document, asRecord(property))).description ?? asRecord(property).description ?? '');
    return `| \`${name}\` | ${cell(typeOf(document, asRecord(property)))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`;
  });
  if (rows.length === 0) return '';
  return `| Field | Type | Required | Meaning |\n|---|---|---|---|\n${rows.join('\n')}\n`;
}

/** One section per operation: method and path, purpose, parameters, body fields, responses. */
export function openApiReferenceMarkdown(document: Json): string {
  const sections: string[] = ['## Operations', '', `Generated from [/openapi.json](/openapi.json) (OpenAPI ${String(document.openapi)}, interface version ${String(asRecord(document.info).version)}).`, ''];
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    const pathItem = asRecord(item);
    for (const method of ['get', 'post', 'put', 'delete']) {
      const operation = asRecord(pathItem[method]);
      if (Object.keys(operation).length === 0) continue;
      sections.push(`### ${method.toUpperCase()} ${path}`, '');
      sections.push(`Operation id: \`${String(operation.operationId)}\`. ${String(operation.summary ?? '')}`.trim(), '');
      if (typeof operation.description === 'string') sections.push(operation.description, '');
      const parameters = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
      if (parameters.length > 0) {
        sections.push('| Parameter | In | Meaning |', '|---|---|---|');
        for (const parameter of parameters.map(asRecord)) {
          sections.push(`| \`${String(parameter.name)}\` | ${String(parameter.in)} | ${cell(String(parameter.description ?? ''))} |`);
        }
        sections.push('');
      }
      const body = asRecord(asRecord(asRecord(asRecord(operation.requestBody).content)['application/json']).schema);
      if (Object.keys(body).length > 0) {
        const table = fieldsTable(document, body);
        if (table) sections.push('Request body:', '', table);
      }
      const responses = Object.entries(asRecord(operation.responses)).map(
        ([status, response]) => `- **${status}**: ${cell(String(asRecord(response).description ?? ''))}`,
      );
      sections.push('Responses:', '', ...responses, '');
    }
  }
  return sections.join('\n');
}
