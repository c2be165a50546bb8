import { describe, expect, it } from 'vitest';
import { detectRegion, findBrand, matchCategory } from './lookup.js';
import { WORLD_CATEGORIES } from './world.js';

describe('the seeded world', () => {
  it('has at least 12 categories of 6–12 brands, each described in English and Spanish', () => {
    expect(WORLD_CATEGORIES.length).toBeGreaterThanOrEqual(12);
    for (const category of WORLD_CATEGORIES) {
      expect(category.brands.length, category.id).toBeGreaterThanOrEqual(6);
      expect(category.brands.length, category.id).toBeLessThanOrEqual(12);
      for (const brand of category.brands) {
        expect(brand.description.length, brand.name).toBeGreaterThan(15);
        expect(brand.descriptionEs.length, brand.name).toBeGreaterThan(15);
        expect(brand.description, brand.name).not.toMatch(/\.$/);
      }
    }
  });

  it('has unique category ids and no duplicate brand within a category', () => {
    const ids = WORLD_CATEGORIES.map((category) => category.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const category of WORLD_CATEGORIES) {
      const names = category.brands.map((brand) => brand.name.toLowerCase());
      expect(new Set(names).size, category.id).toBe(names.length);
    }
  });

  it('matches categories by English and Spanish keywords and synonyms', () => {
    expect(matchCategory('best CRM for agencies')?.id).toBe('crm');
    expect(matchCategory('mejor software de contabilidad')?.id).toBe('accounting');
    expect(matchCategory('apps de delivery de comida en Lima')?.id).toBe('food_delivery');
    expect(matchCategory('zapatillas para correr maratón')?.id).toBe('running_shoes');
    expect(matchCategory('escritorios elevables baratos')?.id).toBe('standing_desks');
    expect(matchCategory('top VPNs for travel')?.id).toBe('vpn');
    // The more specific keyword wins: a city narrows coffee shops to that city.
    expect(matchCategory('coffee shops in Seattle')?.id).toBe('coffee_seattle');
    expect(matchCategory('cafeterías de especialidad en Madrid')?.id).toBe('coffee_madrid');
    expect(matchCategory('coffee shops')?.id).toBe('coffee_chains');
    expect(matchCategory('underwater drones')).toBeUndefined();
  });

  it('finds brands by name or alias, case- and punctuation-insensitively', () => {
    expect(findBrand('hubspot')?.brand.name).toBe('HubSpot');
    expect(findBrand('Sendinblue')?.brand.name).toBe('Brevo');
    expect(findBrand('Monday.com')?.brand.name).toBe('monday.com');
    expect(findBrand('Notion', 'note_taking')?.category.id).toBe('note_taking');
    expect(findBrand('Notion', 'project_management')?.category.id).toBe('project_management');
    expect(findBrand('Acme')).toBeUndefined();
  });

  it('reads the region a prompt names', () => {
    expect(detectRegion('software de contabilidad para pymes en México')).toBe('mx');
    expect(detectRegion('delivery apps in Madrid')).toBe('es');
    expect(detectRegion('best CRM for a small agency')).toBeUndefined();
  });
});
