import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium through the real sign-in. The portal runs on its own
 * port with a fresh data folder, so every run starts from the demo data.
 */
const PORT = Number(process.env.E2E_PORT ?? 8181);
export const BASE_URL = `http://localhost:${PORT}`;
// scripts/e2e.mjs makes a fresh folder per run; a direct `playwright test` uses ./data/e2e.
const DATA_DIR = process.env.E2E_DATA_DIR ?? './data/e2e';

export default defineConfig({
  testDir: './e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  // Safety nets, not waits: a test waits for what a person waits for, and these only end a wait
  // that will not end. With the CPU shared seven ways (load 14 on two cores) a screen took 15 s
  // from the sign-in callback to the profile; a test signs in up to three people.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // The specs share one server and its data; each works on records of its own.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    // The app honours it (theme.ts respectReducedMotion): dialogs appear without a fade, as for
    // people who ask for less motion. Toasts still slide in; expectAccessible waits for that.
    reducedMotion: 'reduce',
    // A screenshot of a failure. No trace: recording the DOM at every step of every test (all of them pass but the
    // one) cost a tenth of the suite's time. To debug a failing spec: --trace retain-on-failure (or on, with the film).
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // scripts/e2e.mjs picks Debian's headless shell where it is installed.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    // Devops provides the master secret first (e2e/master-secret.setup.ts); it runs even with -g or a file filter.
    { name: 'setup', testMatch: /\.setup\.ts$/, use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'chromium', testMatch: /\.spec\.ts$/, dependencies: ['setup'], use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    // The notification worker runs (not NODE_ENV=test); e2e/notifications.spec.ts's webhook receiver listens on 127.0.0.1.
    env: { PORT: String(PORT), PUBLIC_URL: BASE_URL, DATA_DIR, LOG_LEVEL: 'warn', NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE: 'true', ...(process.env.WEB_ROOT ? { WEB_ROOT: process.env.WEB_ROOT } : {}) },
  },
});
