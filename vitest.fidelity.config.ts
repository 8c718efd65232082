import { defineConfig } from 'vitest/config';

// The real-page fidelity suite (test/fidelity/, issue 32): `make test` runs it after the main
// suite (which excludes it), and `make fidelity` alone. One file; its cases run two at a time
// (the machine has 2 cores), each waiting for its page's reference (taken once per run).
export default defineConfig({
  test: {
    include: ['test/fidelity/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    maxConcurrency: 2,
    pool: 'forks',
    maxWorkers: 1,
  },
});
