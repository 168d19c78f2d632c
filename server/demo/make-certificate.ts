/**
 * Real self-signed certificates for the demo seed (demo/certificates.ts), the benchmark's data and the
 * tests, made with real keys.
 */
// @peculiar/x509 resolves its services through tsyringe, which needs this polyfill loaded first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHMS = {
  'EC P-256': { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
  'RSA 2048': { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
} as const;

/** Subject alternative names by @peculiar/x509's kinds ('url' is a URI). */
type AlternativeName = { type: 'dns' | 'ip' | 'email' | 'url'; value: string };

export interface CertificateRequest {
  /** Subject in X.500 string form, most significant first as the tool expects, e.g. 'C=DE, O=Contoso, CN=gw1'. */
  subject: string;
  notBefore: Date;
  notAfter: Date;
  serialNumber?: string;
  /** The key: EC P-256 unless asked otherwise. */
  key?: keyof typeof ALGORITHMS;
  alternativeNames?: AlternativeName[];
}

export async function makeCertificate(request: CertificateRequest): Promise<{ pem: string; privateKeyPem: string }> {
  const algorithm = ALGORITHMS[request.key ?? 'EC P-256'];
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: request.serialNumber ?? webcrypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '7'),
    name: request.subject,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    signingAlgorithm: algorithm,
    keys: keys as unknown as CryptoKeyPair,
    extensions: request.alternativeNames?.length ? [new x509.SubjectAlternativeNameExtension(request.alternativeNames)] : [],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const privateKeyPem = x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
  return { pem: certificate.toString('pem'), privateKeyPem };
}
