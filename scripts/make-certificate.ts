/**
 * The tests' and end-to-end tests' way to server/demo/make-certificate.ts, where the demo seed has it
 * (the server imports nothing from scripts/). To go once they import it from there.
 */
export { makeCertificate } from '../server/demo/make-certificate';
