/**
 * Fresh certificates for the writers' uploads, each with its own DN and serial: real PEMs the portal
 * parses as any upload's. One key signs them all: making a key pair cost ~10 ms per certificate on this
 * machine, signing alone a fraction of it, and the portal does not look at whose key it is.
 * Made before the loaded runs (and topped up between them), so the bench does not charge their making to the shared cores.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface PemPool {
  /** A PEM no upload used yet; made on the spot (and counted) when the pool ran dry. */
  take(): Promise<string>;
  /** Tops the pool up to `count` waiting PEMs. */
  fill(count: number): Promise<void>;
  /** How many were made during a run because the pool was empty. */
  madeLate: number;
}

export async function makePemPool(tag: string): Promise<PemPool> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  let made = 0;
  const make = async () => {
    const n = made++;
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: `7e${tag.replace(/[^0-9a-f]/g, '').slice(0, 8)}${n.toString(16).padStart(8, '0')}`,
      name: `C=DE, O=Bench Writes, OU=Gateways, CN=write-${tag}-${n}.bench.example`,
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 300 * DAY),
      signingAlgorithm: ALGORITHM,
      keys,
    });
    return certificate.toString('pem');
  };
  const waiting: string[] = [];
  const pool: PemPool = {
    madeLate: 0,
    async take() {
      const pem = waiting.pop();
      if (pem) return pem;
      pool.madeLate++;
      return make();
    },
    async fill(count) {
      while (waiting.length < count) waiting.push(await make());
    },
  };
  return pool;
}
