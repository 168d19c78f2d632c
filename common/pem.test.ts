/** The PEM blocks of a pasted text (common/pem.ts): what the bulk upload and the upload screen both count. */
import { describe, expect, it } from 'vitest';
import { certificateBlockCount, pemBlocks, pemFileName } from './pem';

const block = (label: string, body = 'QUJD') => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;

describe('pemBlocks', () => {
  it('cuts each block out in its order, and leaves the text between them out', () => {
    const text = `subject=CN=a\n${block('CERTIFICATE', 'AAAA')}\n# key\n${block('PRIVATE KEY')}\r\n${block('CERTIFICATE', 'BBBB')}\ntrailing`;
    expect(pemBlocks(text)).toEqual([
      { label: 'CERTIFICATE', text: block('CERTIFICATE', 'AAAA'), complete: true },
      { label: 'PRIVATE KEY', text: block('PRIVATE KEY'), complete: true },
      { label: 'CERTIFICATE', text: block('CERTIFICATE', 'BBBB'), complete: true },
    ]);
    expect(certificateBlockCount(text)).toBe(2);
  });

  it('ends a block without its END line where the next one begins, so the next one stays whole', () => {
    const text = `-----BEGIN CERTIFICATE-----\nAAAA\n${block('CERTIFICATE', 'BBBB')}`;
    expect(pemBlocks(text)).toEqual([
      { label: 'CERTIFICATE', text: '-----BEGIN CERTIFICATE-----\nAAAA\n', complete: false },
      { label: 'CERTIFICATE', text: block('CERTIFICATE', 'BBBB'), complete: true },
    ]);
  });

  it('does not take another label\'s END line, nor one after the next block, for a block\'s end', () => {
    const text = `-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----\n${block('X509 CRL')}\n-----END CERTIFICATE-----`;
    expect(pemBlocks(text).map((b) => [b.label, b.complete])).toEqual([['CERTIFICATE', false], ['X509 CRL', true]]);
  });

  it('finds nothing in text without a BEGIN line', () => {
    expect(pemBlocks('')).toEqual([]);
    expect(pemBlocks('MIIBkTCB+wIJAK\n-----END CERTIFICATE-----')).toEqual([]);
    expect(certificateBlockCount('garbage')).toBe(0);
  });
});

describe('pemFileName', () => {
  it('names the file after the common name, the most specific first', () => {
    expect(pemFileName('CN=gw1.example.com,O=Contoso,C=DE')).toBe('gw1.example.com.pem');
    expect(pemFileName('CN=leaf,OU=Ops+CN=other,O=Contoso')).toBe('leaf.pem');
  });

  it('keeps a name safe for every file system: escapes read, other characters one underscore each run', () => {
    expect(pemFileName('CN=*.example.com,O=Contoso')).toBe('wildcard.example.com.pem');
    expect(pemFileName('CN=Müller\\, Hans / gw 2,O=Contoso')).toBe('Müller_Hans_gw_2.pem');
    expect(pemFileName('CN=\\23hash\\C3\\A4,O=x')).toBe('hashä.pem');
    expect(pemFileName('CN=../../etc/passwd')).toBe('etc_passwd.pem');
  });

  it('uses a safe form of the whole DN when there is no common name, and a plain name when nothing is left', () => {
    expect(pemFileName('O=Contoso,C=DE')).toBe('O_Contoso_C_DE.pem');
    expect(pemFileName('CN=///')).toBe('certificate.pem');
    expect(pemFileName(`CN=${'a'.repeat(300)}`)).toBe(`${'a'.repeat(100)}.pem`);
  });
});
