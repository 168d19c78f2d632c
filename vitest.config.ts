import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Files share their worker's modules instead of importing the whole app anew each (6.7 min instead of 9.2 on
    // two cores). Safe because no test mocks a module or leaves a global changed (time-zones.test.ts puts TZ back),
    // and every app a test builds has its own database and caches (db/kept.ts keys them by database).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Console output goes straight to the terminal instead of through the worker's RPC channel:
    // a log still in that channel when a worker closes fails the whole run with every test green
    // ("EnvironmentTeardownError: Closing rpc while onUserConsoleLog was pending", vitest#11153).
    // oidc-provider logs a runtime warning on import under Node 20, in every test file that builds the app.
    disableConsoleIntercept: true,
    // Files and tests in shuffled order, so no test can lean on what another left (docs/decisions.md
    // "Tests stand alone"). The seed is printed when the run starts and, by the reporter, under a failed
    // run; `npx vitest run --sequence.seed=<seed>` replays that order.
    sequence: { shuffle: true },
    reporters: ['default', './test/support/seed-reporter.ts'],
  },
});
