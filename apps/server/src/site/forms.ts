import { escapeHtml } from '@visibility/core';

/** Values a form shows again after a bad submission ("bad input loses nothing"). */
export type FormValues = Partial<Record<string, string>>;

function field(
  values: FormValues,
  name: string,
  label: string,
  options: { required?: boolean; maxLength: number; type?: string; help?: string; placeholder?: string; autocomplete?: string },
  prefix: string,
): string {
  const id = `${prefix}-${name}`;
  const helpId = options.help ? `${id}-help` : undefined;
  return `<div class="field">
<label for="${id}">${escapeHtml(label)}${options.required ? '' : ' <span class="meta">(optional)</span>'}</label>
<input id="${id}" name="${name}" type="${options.type ?? 'text'}" maxlength="${options.maxLength}"${options.required ? ' required' : ''}${
    options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ' autocomplete="off"'
  }${options.placeholder ? ` placeholder="${escapeHtml(options.placeholder)}"` : ''}${helpId ? ` aria-describedby="${helpId}"` : ''} value="${escapeHtml(values[name] ?? '')}">
${options.help ? `<span class="help" id="${helpId}">${escapeHtml(options.help)}</span>\n` : ''}</div>`;
}

/** The quick check's form: posts to /check, the same measurement as POST /api/check. */
export function checkFormHtml(values: FormValues = {}): string {
  return `<form class="run" method="post" action="/check" aria-labelledby="check-heading">
${field(values, 'brand', 'Brand', { required: true, maxLength: 80, placeholder: 'Acme' }, 'check')}
${field(values, 'category', 'Category', { maxLength: 120, placeholder: 'CRM software', help: 'Without a category only recognition is checked, not the blind list.' }, 'check')}
<div><button type="submit">Run the quick check</button></div>
</form>`;
}

/** The full audit's form: posts to /audit, which streams its progress (collapsed) and then opens the report at its own address. */
export function auditFormHtml(values: FormValues = {}): string {
  const language = values.promptLanguage ?? '';
  const option = (value: string, label: string) => `<option value="${value}"${language === value ? ' selected' : ''}>${label}</option>`;
  return `<form class="run" method="post" action="/audit" aria-labelledby="audit-heading">
${field(values, 'brand', 'Brand', { required: true, maxLength: 80, placeholder: 'Acme' }, 'audit')}
${field(values, 'website', 'Website', { required: true, maxLength: 160, placeholder: 'acme.com', help: 'A public site; we read it the way AI crawlers do.' }, 'audit')}
${field(values, 'category', 'Category', { required: true, maxLength: 120, placeholder: 'CRM software', help: 'What buyers would ask for, in their words.' }, 'audit')}
${field(values, 'competitors', 'Competitors to watch', { maxLength: 220, placeholder: 'Globex, Initech', help: 'Comma-separated. The audit also finds the ones the answers name.' }, 'audit')}
${field(values, 'location', 'Market', { maxLength: 80, placeholder: 'Madrid', help: 'Only for local categories.' }, 'audit')}
<div class="field">
<label for="audit-promptLanguage">Language of the questions <span class="meta">(optional)</span></label>
<select id="audit-promptLanguage" name="promptLanguage">${option('', 'From the site')}${option('en', 'English')}${option('es', 'Spanish')}</select>
</div>
${field(values, 'email', 'Email', { maxLength: 120, type: 'email', autocomplete: 'email', help: 'Optional: we mail the result and you can claim the report by signing in with this address.' }, 'audit')}
<div><button type="submit">Run the full audit</button> <span class="meta">Takes 15 to 60 seconds; the report opens when it is ready.</span></div>
</form>`;
}
