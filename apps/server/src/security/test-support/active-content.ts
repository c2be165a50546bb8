import { Parser } from 'htmlparser2';

// ---------------------------------------------------------------------------------------------------------
// Active content: what an injected payload would need to run in a browser or mail client.
// ---------------------------------------------------------------------------------------------------------

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'background', 'data', 'srcdoc', 'content']);
const SAFE_URL = /^(?:https?:|mailto:|\/(?!\/)|#|\?|[^:/?#]*(?:[/?#]|$))/i;

export interface ActiveContentOptions {
  /** Parse as XML (the SVG badge) instead of HTML. */
  xml?: boolean;
  /** The only element names this output may contain (lower case). */
  allowedElements: readonly string[];
  /** The one meta refresh `content` this output may carry (anything else is a problem). */
  allowedRefresh?: RegExp;
}

/**
 * Every way the markup could run or load something an attacker chose: elements outside the expected set
 * (script, iframe, img, foreignObject, …), event-handler attributes, URL attributes whose scheme is not
 * http(s)/mailto/relative (javascript:, data:, vbscript:), CSS expressions or url() in style, and a meta
 * refresh. An empty list means the output is inert.
 */
export function findActiveContent(markup: string, options: ActiveContentOptions): string[] {
  const problems: string[] = [];
  const allowed = new Set(options.allowedElements.map((name) => name.toLowerCase()));
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = name.toLowerCase();
        if (!allowed.has(element)) problems.push(`unexpected element <${element}>`);
        for (const [rawName, value] of Object.entries(attributes)) {
          const attribute = rawName.toLowerCase();
          if (attribute.startsWith('on')) problems.push(`<${element}> has an event handler ${attribute}="${value}"`);
          if (attribute === 'style' && /expression\s*\(|url\s*\(|javascript:|behavior\s*:|-moz-binding/i.test(value)) {
            problems.push(`<${element}> has active CSS in style="${value}"`);
          }
          if (attribute === 'http-equiv' && /set-cookie/i.test(value)) problems.push(`<meta http-equiv="${value}">`);
          // A refresh is active unless the caller expects exactly this one (the audit page's hop to its report).
          if (attribute === 'http-equiv' && /refresh/i.test(value) && !(options.allowedRefresh?.test(attributes['content'] ?? '') ?? false)) {
            problems.push(`<meta http-equiv="${value}" content="${attributes['content'] ?? ''}">`);
          }
          if (URL_ATTRIBUTES.has(attribute) && attribute !== 'content') {
            const compact = value.replace(/[\u0000-\u0020]/g, '');
            // The site's empty favicon (<link rel="icon" href="data:,">) is the one data: URL that loads nothing.
            const emptyIcon = element === 'link' && compact === 'data:,';
            if (!SAFE_URL.test(compact) && !emptyIcon) problems.push(`<${element}> ${attribute} has a non-http URL "${value}"`);
          }
        }
      },
      ontext(text) {
        // A CSS expression smuggled into a <style> block would show up as text of <style>.
        if (/expression\s*\(/i.test(text) && /<style/i.test(markup.slice(0, parser.startIndex))) {
          const before = markup.slice(0, parser.startIndex);
          if (before.lastIndexOf('<style') > before.lastIndexOf('</style')) problems.push(`CSS expression in <style>: ${text.slice(0, 80)}`);
        }
      },
      onprocessinginstruction(name, data) {
        if (options.xml === true && !/^\?xml\b/i.test(data)) problems.push(`processing instruction ${name}`);
      },
    },
    { xmlMode: options.xml === true, decodeEntities: true, lowerCaseTags: options.xml !== true, recognizeCDATA: options.xml === true },
  );
  parser.write(markup);
  parser.end();
  return problems;
}

export const SVG_BADGE_ELEMENTS = ['svg', 'title', 'rect', 'g', 'text'] as const;
/** The site's shared page chrome (header, navigation, footer, stylesheet link) and its text elements. */
export const SITE_PAGE_ELEMENTS = [
  'html', 'head', 'meta', 'title', 'link', 'style', 'body', 'header', 'nav', 'main', 'footer', 'section', 'article', 'aside', 'div',
  'span', 'a', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'p', 'strong', 'em', 'b', 'i', 'small', 'code', 'pre', 'br', 'hr', 'abbr',
  'dl', 'dt', 'dd', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'time', 'figure', 'figcaption', 'details',
  'summary', 'blockquote', 'mark', 'meter', 'progress', 'output',
] as const;
export const ACCOUNT_PAGE_ELEMENTS = [...SITE_PAGE_ELEMENTS, 'form', 'label', 'input', 'button', 'fieldset', 'legend', 'select', 'option'] as const;
export const MAIL_ELEMENTS = ['html', 'body', 'h1', 'h2', 'p', 'strong', 'ul', 'li', 'a'] as const;
