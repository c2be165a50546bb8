// The unit the extractor works with: one place where the answer may name a brand.

/** Where a mention was found: a name slot of the layout, free prose, or a description of another item. */
export type MentionSource = 'structural' | 'prose' | 'description';

/** An accepted mention makes an entry; a weak one only joins an entry other evidence made. */
export type Verdict = 'accept' | 'weak';

export interface Mention {
  surface: string;
  start: number;
  source: MentionSource;
  verdict: Verdict;
}

/** A stretch of running text to scan for names, and how much to trust what it finds. */
export interface TextRegion {
  start: number;
  end: number;
  kind: 'prose' | 'description';
  /** A list item with no name head: its first words still sit where names go. */
  listItem?: boolean;
}
