import { describe, expect, it } from 'vitest';
import { detectLanguage, languageFromTag } from './language.js';

const ENGLISH = 'The fastest way to send your invoices. We help you get paid for the work that you do, with all the tools you need.';
const SPANISH = 'La forma más rápida de enviar tus facturas. Te ayudamos a cobrar por el trabajo que haces, con todas las herramientas para tu negocio y los clientes del barrio.';

describe('languageFromTag', () => {
  it.each([
    ['es', 'es'],
    ['es-ES', 'es'],
    ['ES_mx', 'es'],
    ['en-US', 'en'],
    [' en ', 'en'],
    ['fr-FR', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (tag, expected) => {
    expect(languageFromTag(tag)).toBe(expected);
  });
});

describe('detectLanguage', () => {
  it('trusts <html lang> first', () => {
    expect(detectLanguage({ htmlLang: 'es', contentLanguage: 'en', text: '' })).toEqual({ language: 'es', source: 'html-lang' });
  });

  it('uses Content-Language when there is no lang attribute', () => {
    expect(detectLanguage({ htmlLang: undefined, contentLanguage: 'es-ES', text: ENGLISH })).toEqual({ language: 'es', source: 'content-language' });
  });

  it('falls back to the text', () => {
    expect(detectLanguage({ htmlLang: undefined, contentLanguage: undefined, text: SPANISH })).toEqual({ language: 'es', source: 'text' });
    expect(detectLanguage({ htmlLang: undefined, contentLanguage: undefined, text: ENGLISH })).toEqual({ language: 'en', source: 'text' });
  });

  it('says nothing when the text is too short or mixed', () => {
    expect(detectLanguage({ htmlLang: undefined, contentLanguage: undefined, text: 'Acme Pro' })).toEqual({ language: undefined, source: undefined });
    expect(detectLanguage({ htmlLang: undefined, contentLanguage: undefined, text: `${ENGLISH} ${SPANISH}` }).language).toBeUndefined();
  });

  it('reports a declared other language as not en/es', () => {
    expect(detectLanguage({ htmlLang: 'de', contentLanguage: undefined, text: ENGLISH })).toEqual({ language: undefined, source: 'html-lang' });
  });

  it('lets overwhelming text override a template default lang="en"', () => {
    expect(detectLanguage({ htmlLang: 'en-US', contentLanguage: undefined, text: SPANISH.repeat(4) })).toEqual({ language: 'es', source: 'text' });
    // A little Spanish on an English-declared page is not enough.
    expect(detectLanguage({ htmlLang: 'en-US', contentLanguage: undefined, text: SPANISH }).language).toBe('en');
  });
});
