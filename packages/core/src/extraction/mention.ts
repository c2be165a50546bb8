// The unit the extractor works with: one place where the answer may name a brand.

/** Where a mention was found: a name slot of the layout, or running text. */
export type MentionSource = 'structural' | 'prose';

/** An accepted mention makes an entry; a weak one only joins an entry other evidence made. */
export type Verdict = 'accept' | 'weak';

export interface Mention {
  surface: string;
  start: number;
  source: MentionSource;
  verdict: Verdict;
}
