/**
 * Verifies a license key offline, as the vendor's software does (docs/decisions.md "Licenses").
 *
 *   npx tsx scripts/verify-license-key.ts <key-file> [public-key-file]
 *
 * <key-file> holds the key text ('-' reads it from standard input). [public-key-file] is the PEM
 * from GET /api/licenses/public-key; without it the key is fetched once from PORTAL_URL
 * (default http://localhost:8080, where `npm start` listens unless PORT says otherwise), the only step
 * that needs the network; the error of a failed fetch names the address it tried.
 * Prints the payload and whether it is in force now; exits 1 when the key is not valid, 2 on usage errors.
 */
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { isLicenseKeyInForce, verifyLicenseKey } from '../common/license-key';
import { describeError } from '../server/startup';

async function readPublicKey(file: string | undefined): Promise<string> {
  if (file) return fs.readFile(file, 'utf8');
  const url = `${(process.env.PORTAL_URL ?? 'http://localhost:8080').replace(/\/$/, '')}/api/licenses/public-key`;
  let res: Response;
  try {
    res = await fetch(url);
  } catch (error) {
    // fetch's own "fetch failed" names neither the address nor how to give another one.
    throw new Error(`cannot reach the portal at ${url} (${describeError(error)}); set PORTAL_URL to the portal's address or pass the public key file`);
  }
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return res.text();
}

async function main(argv: string[]): Promise<number> {
  const [keyFile, publicKeyFile] = argv;
  if (!keyFile || argv.length > 2) {
    console.error('usage: npx tsx scripts/verify-license-key.ts <key-file|-> [public-key-file]');
    return 2;
  }
  let key: string;
  let publicKey: string;
  try {
    key = keyFile === '-' ? readFileSync(0, 'utf8') : await fs.readFile(keyFile, 'utf8');
    publicKey = await readPublicKey(publicKeyFile);
  } catch (error) {
    console.error(`Cannot read the input: ${(error as Error).message}`);
    return 2;
  }
  try {
    const payload = verifyLicenseKey(key, publicKey);
    console.log(JSON.stringify({ valid_signature: true, in_force: isLicenseKeyInForce(payload), payload }, null, 2));
    return 0;
  } catch (error) {
    console.error(`INVALID: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
