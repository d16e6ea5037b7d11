import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('csv', () => {
  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('plain')).toBe('plain');
  });

  it('neutralises the full-width formula characters like their ASCII twins (issue 25)', () => {
    expect(csvCell('\uFF1DHYPERLINK("http://evil","x")')).toBe(`"'\uFF1DHYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('＋1')).toBe("'＋1");
    expect(csvCell('－2+3')).toBe("'－2+3");
    expect(csvCell('＠SUM(A1)')).toBe("'＠SUM(A1)");
    // Only at the start, as for ASCII; other full-width text is left alone.
    expect(csvCell('a＝b')).toBe('a＝b');
    expect(csvCell('Ｃafé')).toBe('Ｃafé');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvRow(['a,b', 'say "hi"', 'two\nlines', null, 3])).toBe('"a,b","say ""hi""","two\nlines",,3\r\n');
  });
});
