import { describe, expect, it } from 'vitest';
import { classifyVertical } from './vertical.js';

describe('classifyVertical', () => {
  it('reads schema types first', () => {
    const result = classifyVertical({ schemaTypes: ['Organization', 'SoftwareApplication'], headlines: [], text: '' });
    expect(result.vertical).toBe('saas');
    expect(result.signals).toContain('saas: schema:SoftwareApplication');
  });

  it.each([
    ['saas', ['Invoicing software for freelancers', 'Integrations'], 'Start your free trial. Works with your dashboard.'],
    ['ecommerce', ['Shop the new collection', 'Free shipping on all orders'], 'Add to cart. Checkout securely.'],
    ['local_business', ['Clínica dental en Valencia', 'Horario'], 'Pide cita previa. Visítanos en nuestra dirección.'],
    ['finance', ['Mortgage rates today', 'Savings accounts'], 'Compare the interest rate of every loan.'],
    ['travel', ['Cheap flights and hotels', 'Top destinations'], 'Plan your vacation.'],
    ['media', ['Breaking news', 'Opinion'], 'Subscribe to the newsletter for the latest stories.'],
  ] as const)('recognises %s from words', (expected, headlines, text) => {
    expect(classifyVertical({ schemaTypes: [], headlines, text }).vertical).toBe(expected);
  });

  it('says "other" when the evidence is thin or tied', () => {
    expect(classifyVertical({ schemaTypes: [], headlines: ['Welcome'], text: 'Hello there.' }).vertical).toBe('other');
    expect(classifyVertical({ schemaTypes: ['SoftwareApplication', 'Product'], headlines: [], text: '' }).vertical).toBe('other');
  });

  it('matches whole words only', () => {
    // "apps" and "shopping" must not count as "app" and "shop"; "application" is not "api".
    expect(classifyVertical({ schemaTypes: [], headlines: ['Shopping apps application'], text: '' }).vertical).toBe('other');
  });

  it('caps what body text can add', () => {
    const text = 'software platform api integrations dashboard workflow automation cloud app saas';
    expect(classifyVertical({ schemaTypes: [], headlines: [], text }).scores.saas).toBe(4);
  });
});
