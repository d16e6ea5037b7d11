import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../modules/i18n/translator.ts';
import { messagesFor } from '../../modules/i18n/server.ts';
import { refusalMessage } from './fetching.ts';

describe('a refusal as the customer reads it (ADR 090)', () => {
  const es = createTranslator('es', messagesFor('es'));
  const en = createTranslator('en', messagesFor('en'));
  const limited = (seconds: string) => ({ status: 429, headers: new Headers({ 'Retry-After': seconds }) });

  it('a rate limit in the customer’s language, counted from Retry-After like the edge’s 429 page', () => {
    expect(refusalMessage(limited('30'), 'Too many attempts. Please wait 30 seconds and try again.', es)).toMatch(/^Demasiados intentos\. Espera 30 segundos/);
    expect(refusalMessage(limited('300'), 'x', es)).toMatch(/Espera 5 minutos/);
    expect(refusalMessage(limited('60'), 'x', en)).toBe('Too many attempts. Please wait 1 minute and try again.');
  });

  it('another refusal: the catalog’s words when it has them, else the server’s', () => {
    const bad = { status: 400, headers: new Headers() };
    expect(refusalMessage(bad, 'Please correct the highlighted fields.', es)).toBe('Corrige los campos marcados.');
    expect(refusalMessage(bad, 'Something only the server says.', es)).toBe('Something only the server says.');
    expect(refusalMessage(limited('nope'), 'Please try again.', es)).toBe('Inténtalo de nuevo.');
  });
});
