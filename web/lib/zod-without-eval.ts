/**
 * Zod compiles its object parsers with `new Function` unless told not to; under our CSP (script-src
 * without 'unsafe-eval') even its caught probe for that is reported as a violation. jitless parses
 * without either. web/main.tsx imports this first: each object schema decides when it is made, so
 * this must run before any schema (common/schemas) is.
 */
import { z } from 'zod';

z.config({ jitless: true });
