/**
 * Throttled job progress: each update is a Redis round trip and an event to
 * every listener, so report at most every `intervalMs`, but always when the
 * stage changes and at the end.
 */
import type { JobProgressInfo } from './job-types.js';

export class ProgressReporter {
  private lastAt = 0;
  private lastStage = '';
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly send: (p: JobProgressInfo) => Promise<void>,
    private readonly intervalMs = 250,
  ) {}

  report(p: JobProgressInfo, force = false): void {
    const now = Date.now();
    if (!force && p.stage === this.lastStage && now - this.lastAt < this.intervalMs) return;
    this.lastAt = now;
    this.lastStage = p.stage;
    const rounded = { ...p, fraction: Math.round(Math.min(Math.max(p.fraction, 0), 1) * 1000) / 1000 };
    // Sequential, and a lost update (Redis hiccup) never fails the job.
    this.pending = this.pending.then(() => this.send(rounded)).catch(() => {});
  }

  /** Waits for updates in flight. */
  flush(): Promise<void> {
    return this.pending;
  }
}
