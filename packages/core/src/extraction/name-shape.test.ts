import { describe, expect, it } from 'vitest';
import { isFeatureAttribute, isSentenceInitial } from './context-cues.js';
import { isNameShaped, looksLikePerson, structuralNames } from './name-shape.js';
import { isHyphenAdjective, isNameLikeToken, isUnitToken } from './tokens.js';

describe('structuralNames', () => {
  it('cleans numbering, labels, parentheticals and trailing punctuation', () => {
    expect(structuralNames('1. Saatva Classic (Editor’s Choice)')).toEqual(['Saatva Classic']);
    expect(structuralNames('Best for Bright Rooms: TCL QM8 (65")')).toEqual(['TCL QM8']);
    expect(structuralNames('Garmin Forerunner 265:')).toEqual(['Garmin Forerunner 265']);
    expect(structuralNames('Coway Airmega AP-1512HH "Mighty"')).toEqual(['Coway Airmega AP-1512HH "Mighty"']);
  });

  it('splits names joined by "and", "or", "vs." or a slash when each part is a name', () => {
    expect(structuralNames('Plausible or Fathom')).toEqual(['Plausible', 'Fathom']);
    expect(structuralNames('Notion vs. Obsidian')).toEqual(['Notion', 'Obsidian']);
    expect(structuralNames('Marketing site, want simple stats')).toEqual([]);
  });

  it('rejects labels, sentences, questions, places, people and reference words', () => {
    for (const label of ['Key Features to Look For', 'Bottom Line', 'Budget pick', 'Best Cordless Alternative', 'TL;DR', 'Pros']) {
      expect(structuralNames(label)).toEqual([]);
    }
    expect(structuralNames('Use a reservation app or the website')).toEqual([]);
    expect(structuralNames('GORE-TEX or not?')).toEqual([]);
    expect(structuralNames('Tokyo')).toEqual([]);
    expect(structuralNames('Dr. Sarah Kim')).toEqual([]);
    expect(structuralNames('RTINGS')).toEqual([]);
    expect(structuralNames('True HEPA')).toEqual([]);
  });

  it('keeps stylised lowercase names and names with connectors', () => {
    expect(structuralNames('italki')).toEqual(['italki']);
    expect(structuralNames('Amazon RDS for PostgreSQL')).toEqual(['Amazon RDS for PostgreSQL']);
    expect(structuralNames('Mr. Taka Ramen')).toEqual(['Mr. Taka Ramen']);
    expect(structuralNames('iRobot Roomba j9+')).toEqual(['iRobot Roomba j9+']);
  });
});

describe('name shapes and people', () => {
  it('tells name-like tokens from units and hyphenated adjectives', () => {
    expect(isNameLikeToken('iPhone')).toBe(true);
    expect(isNameLikeToken('Q39')).toBe(true);
    expect(isNameLikeToken('acme.io')).toBe(true);
    expect(isNameLikeToken('Android-based')).toBe(false);
    expect(isHyphenAdjective('GDPR-friendly')).toBe(true);
    expect(isHyphenAdjective('Bar-B-Que')).toBe(false);
    expect(isUnitToken('144Hz')).toBe(true);
    expect(isUnitToken('100M+')).toBe(true);
    expect(isUnitToken('S90D')).toBe(false);
  });

  it('requires every word of a multi-word name to be capitalised, a number or a connector', () => {
    expect(isNameShaped('Vari Electric Standing Desk')).toBe(true);
    expect(isNameShaped('Low noise')).toBe(false);
  });

  it('recognises people but not businesses named after them', () => {
    expect(looksLikePerson(['Sam', 'Harris'], false)).toBe(true);
    expect(looksLikePerson(['Ivan', 'Ramen'], false)).toBe(false);
    expect(looksLikePerson(['Arthur', "Bryant's"], true)).toBe(false);
    expect(looksLikePerson(['Dr.', 'Smith'], false)).toBe(true);
  });
});

describe('context cues', () => {
  it('spots named features and dishes after a name', () => {
    expect(isFeatureAttribute(' program for young drivers')).toBe(true);
    expect(isFeatureAttribute(' usage-based program can')).toBe(true);
    expect(isFeatureAttribute(' adds page-turn buttons')).toBe(false);
    expect(isFeatureAttribute(' is the best')).toBe(false);
  });

  it('knows sentence starts, skipping quotes, emoji and abbreviations', () => {
    const text = 'Done. "Acme rocks" ✅ Globex, see Mr. Smith and e.g. Initech.';
    expect(isSentenceInitial(text, 0, text.indexOf('Acme'))).toBe(true);
    expect(isSentenceInitial(text, 0, text.indexOf('Globex'))).toBe(false);
    expect(isSentenceInitial(text, 0, text.indexOf('Smith'))).toBe(false);
    expect(isSentenceInitial(text, 0, text.indexOf('Initech'))).toBe(false);
    expect(isSentenceInitial(text, 0, 0)).toBe(true);
  });
});
