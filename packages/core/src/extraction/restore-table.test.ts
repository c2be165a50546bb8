import { describe, expect, it } from 'vitest';
import { explainExtraction } from './extract-brands.js';
import { restoreTables } from './restore-table.js';

// Tables copied from a web page whose line breaks were lost; written for these tests, none from the dev set.
const COPIED =
  'Here is how the three compare: Tool   Price   Best for Zorblax Cloud   $10/mo   Small teams with simple needs Quenty Drive   $12/mo   Agencies that share files with clients Initech Box   $8/mo   Solo work. Pick the one your team will open every day.';

describe('restoreTables', () => {
  it('writes a copied table back as markdown: cells apart at the borders, rows cut before the name that opens each', () => {
    expect(restoreTables(COPIED)).toEqual([
      { text: 'Here is how the three compare:', table: false },
      {
        text: [
          '| Tool | Price | Best for |',
          '|---|---|---|',
          '| Zorblax Cloud | $10/mo | Small teams with simple needs |',
          '| Quenty Drive | $12/mo | Agencies that share files with clients |',
          '| Initech Box | $8/mo | Solo work. |',
        ].join('\n'),
        table: true,
      },
      { text: 'Pick the one your team will open every day.', table: false },
    ]);
  });

  it('reads tab borders, and a header whose empty corner cell was lost', () => {
    const tabs = 'At a glance:\tZorblax\tQuenty Price\t$10\t$12 Storage\t1 TB\t2 TB Support\tEmail\tPhone and chat. That is all.';
    const [, table] = restoreTables(tabs);
    expect(table?.table).toBe(true);
    expect(table?.text.split('\n')).toEqual([
      '|  | Zorblax | Quenty |',
      '|---|---|---|',
      '| Price | $10 | $12 |',
      '| Storage | 1 TB | 2 TB |',
      '| Support | Email | Phone and chat. |',
    ]);
  });

  it('opens the next row at a brand the gazetteers know, so the cell before keeps its own capitalised words', () => {
    // the last cell of a row ends in a capitalised term ("in-flight Wi-Fi") that ran into the next row's name
    const copied =
      'Plans compared: Plan   Price   Notes Google Fi   $25   Good value on in-flight Wi-Fi Verizon Unlimited   $80   Perks and in-flight Wi-Fi Dropbox Plus   $30   Simple plans. That is the list.';
    const [, table] = restoreTables(copied);
    expect(table?.text.split('\n')).toEqual([
      '| Plan | Price | Notes |',
      '|---|---|---|',
      '| Google Fi | $25 | Good value on in-flight Wi-Fi |',
      '| Verizon Unlimited | $80 | Perks and in-flight Wi-Fi |',
      '| Dropbox Plus | $30 | Simple plans. |',
    ]);
  });

  it('leaves sentences spaced twice, and text without borders, as they are', () => {
    const spaced = 'We looked at many options this year.  Most of them were fine for small teams.  A few stood out for price.  Others suit larger groups.  Pick the one that fits.  Try the free tiers first.  Then decide.';
    expect(restoreTables(spaced)).toEqual([{ text: spaced, table: false }]);
    expect(restoreTables('Zorblax Cloud and Quenty Drive are both fine.')).toEqual([{ text: 'Zorblax Cloud and Quenty Drive are both fine.', table: false }]);
  });

  it('lets the extractor read the first column of a copied table as names in table cells', () => {
    const cells = explainExtraction(COPIED).candidates.filter((candidate) => candidate.slot === 'table_cell').map((candidate) => candidate.surface);
    expect(cells).toEqual(expect.arrayContaining(['Zorblax Cloud', 'Quenty Drive', 'Initech Box']));
  });
});
