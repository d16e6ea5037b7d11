import { describe, expect, it } from 'vitest';
import { carriesUpload } from '../../server/http.ts';
import { decodeDataUrl } from './verify.server.ts';

describe('decodeDataUrl', () => {
  it('decodes base64 data URLs whatever media type they claim', () => {
    expect(Buffer.from(decodeDataUrl('data:image/png;base64,iVBORw0KGgo=')!)).toEqual(Buffer.from('89504e470d0a1a0a', 'hex'));
    expect(Buffer.from(decodeDataUrl('data:application/pdf;name=x.pdf;base64,JVBERi0=')!).toString()).toBe('%PDF-');
    expect(decodeDataUrl('data:;base64,')?.byteLength).toBe(0);
  });

  it.each([
    ['no data: prefix', 'iVBORw0KGgo='],
    ['not base64-encoded', 'data:image/png,%89PNG'],
    ['characters outside base64', 'data:image/png;base64,iVBO%%Gg'],
    ['a truncated quantum', 'data:image/png;base64,iVBOR'],
    ['a URL', 'https://example.com/shot.png'],
  ])('refuses %s', (_name, value) => {
    expect(decodeDataUrl(value)).toBeNull();
  });
});

describe('carriesUpload', () => {
  it.each([
    ['/api/verify-screenshot', true],
    ['/api/verify-social', true],
    ['/api/verify-social/', true],
    ['/survey/public/b/s', true],
    ['/survey/dynamic/b', true],
    ['/survey/b', true],
    ['/survey/', false],
    ['/survey-builder', false],
    ['/survey-published/x', false],
    ['/api/verify-screenshots', false],
    ['/api/survey/submit/b/s', false],
  ])('%s -> %s', (pathname, expected) => {
    expect(carriesUpload(pathname)).toBe(expected);
  });
});
