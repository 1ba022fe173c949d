/**
 * What `meteopunto start` says while it builds the sample dataset: on a
 * terminal one progress bar, product by product, then one line; otherwise a
 * line when it ends (the caller says why it starts). The full ingest reports stay
 * with `meteopunto demo` and `meteopunto tiles ls`.
 */
import type { SampleResult, SampleStepAt } from '../ingest/sample/build.js';

export interface SampleProgress {
  onProgress(message: string, at: SampleStepAt): void;
  /** Ends the bar; the closing line for a built dataset, or the failure. */
  finish(outcome: { result: SampleResult; elapsedMs: number } | { error: string }): void;
}

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** The one line a finished build gets. */
export function sampleSummary(r: SampleResult, elapsedMs: number): string {
  return `SAMPLE data built in ${(elapsedMs / 1000).toFixed(0)} s (synthetic, not a forecast): ${Object.keys(r.reports).join(', ')}; details: meteopunto tiles ls`;
}

/** Progress on `out`; the caller has said why it builds. */
export async function sampleProgress(out: Out): Promise<SampleProgress> {
  const finishLine = (o: Parameters<SampleProgress['finish']>[0]) =>
    'error' in o ? `meteopunto start: building the sample data failed: ${o.error}\n` : `${sampleSummary(o.result, o.elapsedMs)}\n`;
  if (!out.isTTY) {
    return { onProgress: () => undefined, finish: (o) => out.write(finishLine(o)) };
  }
  const { SingleBar, Presets } = (await import('cli-progress')).default;
  const bar = new SingleBar({ format: 'sample data [{bar}] {value}/{total} {product}: {stage}', stream: out, hideCursor: true, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    onProgress(_message, at) {
      const payload = { product: at.product, stage: at.stage === 'generate' ? 'generating' : 'ingesting' };
      if (!started) bar.start(at.steps, at.step - 1, payload);
      else bar.update(at.step - 1, payload);
      started = true;
    },
    finish(o) {
      if (started) bar.stop();
      out.write(finishLine(o));
    },
  };
}
