import { describe, expect, it } from 'vitest';
import { chooseInternalPages } from './internal-links.js';

const link = (url: string, text = ''): { url: string; text: string } => ({ url, text });

describe('chooseInternalPages', () => {
  it('prefers pricing, about, product and comparison pages on the same site', () => {
    const chosen = chooseInternalPages(
      [
        link('https://acme.io/blog/hello'),
        link('https://acme.io/'),
        link('https://acme.io/login'),
        link('https://acme.io/brochure.pdf'),
        link('https://other.io/pricing'),
        link('https://www.acme.io/about-us', 'About'),
        link('https://acme.io/pricing?ref=nav', 'Pricing'),
        link('https://acme.io/pricing/', 'Plans'),
        link('https://acme.io/acme-vs-rival', 'Acme vs Rival'),
        link('https://acme.io/features', 'Features'),
        link('https://acme.io/careers'),
      ],
      'https://acme.io/',
      4,
    );
    expect(chosen).toEqual(['https://acme.io/pricing', 'https://www.acme.io/about-us', 'https://acme.io/acme-vs-rival', 'https://acme.io/features']);
  });

  it('understands Spanish paths and fills up with other pages in order', () => {
    const chosen = chooseInternalPages([link('https://tienda.es/blog'), link('https://tienda.es/sobre-nosotros'), link('https://tienda.es/precios')], 'https://tienda.es/', 4);
    expect(chosen).toEqual(['https://tienda.es/precios', 'https://tienda.es/sobre-nosotros', 'https://tienda.es/blog']);
  });
});
