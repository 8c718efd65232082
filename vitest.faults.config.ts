import { defineConfig } from 'vitest/config';

// `make faults` (issue 41): the long fault scenarios of test/faults/ (`*.faults.test.ts`), one
// file at a time: each starts its own PostgreSQL, Redis, s3rver and Vitrine processes and stops
// them on purpose. The short scenarios (`*.test.ts` there) run in `make test`; the main config
// excludes these (test/faults/README.md).
export default defineConfig({
  test: {
    include: ['test/faults/**/*.faults.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
