import { describe, expect, it } from 'vitest';
import { disposableDomain, textKey } from './signals.ts';

describe('fraud signal keys', () => {
  it('textKey folds case, accents, spacing and punctuation, and ignores short texts', () => {
    const a = textKey('Honestly the best flat white in town, the staff were lovely!');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(textKey('honestly   THE best flat-white in town; the staff were LOVELY')).toBe(a);
    expect(textKey('Honestly the best flat white in town, the staff were lovelier')).not.toBe(a);
    expect(textKey('Everything was perfect, thank you!')).toBeNull();
    expect(textKey('Café crème était très bon, le personnel était adorable')).toBe(textKey('Cafe creme etait tres bon le personnel etait adorable'));
  });

  it('disposableDomain names a disposable service and nothing else', () => {
    expect(disposableDomain('someone@mailinator.com')).toBe('mailinator.com');
    expect(disposableDomain(' Someone@Mailinator.com ')).toBe('mailinator.com');
    expect(disposableDomain('ana@gmail.com')).toBeNull();
    expect(disposableDomain('ana@crumbandco.com')).toBeNull();
    expect(disposableDomain(null)).toBeNull();
  });
});
