import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Ceilings against hangs, not speed checks: suites that start tsx processes or build the sample
    // take 3-4 times longer when the machine runs other work beside the suite (load 7-9 seen).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Suites start servers and subprocesses; 2 cores here.
    maxWorkers: 2,
  },
});
