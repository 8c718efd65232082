import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    // The real-page fidelity suite runs on its own (`make fidelity`, vitest.fidelity.config.ts),
    // and so do the long fault scenarios (`make faults`, vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, 'test/fidelity/**', 'test/faults/**/*.faults.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    // A test app's close runs its steps one after another, each bounded (HTTP grace 10 s, jobs'
    // grace up to the capture timeout, Chromium's close 3 s and then a kill); one close under a
    // loaded CI run passed 60 s once. test/support/test-app.ts names the steps of a slow close.
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
