import { describe, expect, it } from 'vitest';
import { negotiate, prefersJson } from './negotiation.js';

const both = ['html', 'markdown'] as const;

describe('negotiate', () => {
  it('gives html when there is no Accept header or it accepts anything', () => {
    expect(negotiate(undefined, both)).toBe('html');
    expect(negotiate('', both)).toBe('html');
    expect(negotiate('*/*', both)).toBe('html');
  });

  it('gives markdown to a client that asks for it', () => {
    expect(negotiate('text/markdown', both)).toBe('markdown');
    expect(negotiate('text/x-markdown', both)).toBe('markdown');
    expect(negotiate('text/markdown, text/html;q=0.5', both)).toBe('markdown');
    expect(negotiate('text/plain, text/markdown;q=0.9, */*;q=0.1', both)).toBe('markdown');
  });

  it('honours q-values, not the order of the header', () => {
    expect(negotiate('text/html;q=0.4, text/markdown;q=0.8', both)).toBe('markdown');
    expect(negotiate('text/markdown;q=0.4, text/html;q=0.8', both)).toBe('html');
    expect(negotiate('text/markdown;q=0.5, text/html;q=0.5', both)).toBe('html');
  });

  it('lets the most specific range decide: text/html;q=0 refuses html even with */*', () => {
    expect(negotiate('text/html;q=0, */*', both)).toBe('markdown');
    expect(negotiate('text/*;q=0, text/markdown', both)).toBe('markdown');
    expect(negotiate('text/*, text/markdown;q=0', both)).toBe('html');
  });

  it('gives a browser html', () => {
    expect(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', both)).toBe('html');
  });

  it('answers nothing (406) when every representation is refused', () => {
    expect(negotiate('application/json', both)).toBeUndefined();
    expect(negotiate('image/png, text/plain', both)).toBeUndefined();
    expect(negotiate('text/html;q=0, text/markdown;q=0', both)).toBeUndefined();
    expect(negotiate('*/*;q=0', both)).toBeUndefined();
    expect(negotiate('text/html', ['markdown'])).toBeUndefined();
  });

  it('treats an unreadable q as refusal, and clamps q above 1', () => {
    expect(negotiate('text/markdown;q=abc', both)).toBeUndefined();
    expect(negotiate('text/markdown;q=7, text/html;q=0.9', both)).toBe('markdown');
  });

  it('ignores malformed ranges', () => {
    expect(negotiate('garbage, text/markdown', both)).toBe('markdown');
    expect(negotiate(',,,', both)).toBe('html');
  });
});

describe('prefersJson', () => {
  it('is true only when JSON is asked at least as much as the page types', () => {
    expect(prefersJson('application/json')).toBe(true);
    expect(prefersJson('application/json, */*;q=0.1')).toBe(true);
    expect(prefersJson('text/html, application/json;q=0.9')).toBe(false);
    expect(prefersJson('*/*')).toBe(false);
    expect(prefersJson(undefined)).toBe(false);
  });
});
