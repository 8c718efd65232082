import yoctoSpinner, { type Spinner } from 'yocto-spinner';

/** Progress of a long command, on stderr so stdout stays clean for URLs and JSON. */
export interface Progress {
  /** Starts a phase; its time is measured until `done` or `fail`. */
  phase(text: string): void;
  /** Ends the phase; the text gets the phase's duration appended. */
  done(text: string): void;
  fail(text: string): void;
  /** A line that is not a phase. */
  note(text: string): void;
  /**
   * Counts of the running phase (`vitrine batch`, `vitrine sync`): a bar on a terminal, redrawn
   * in place; elsewhere one line each time the counts change.
   */
  counts(counts: { done: number; failed: number; total: number }): void;
}

/** `[########------------] 12/30 done, 1 failed`: the bar counts finished renders, failed ones too. */
export function countsBar(counts: { done: number; failed: number; total: number }, width = 24): string {
  const finished = counts.done + counts.failed;
  const filled = counts.total === 0 ? width : Math.round((finished / counts.total) * width);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
  const failed = counts.failed > 0 ? `, ${counts.failed} failed` : '';
  return `[${bar}] ${counts.done}/${counts.total} done${failed}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * On a terminal, a spinner per phase that turns into a tick with the phase's time; otherwise
 * (pipes, CI logs) one plain line per finished phase.
 */
export function createProgress(
  stream: NodeJS.WriteStream,
  options: { interactive: boolean; quiet?: boolean },
): Progress {
  let started = 0;
  let spinner: Spinner | undefined;
  let phaseText = '';
  let lastCounts = '';
  const write = (line: string) => {
    if (!options.quiet) stream.write(`${line}\n`);
  };
  return {
    phase(text) {
      started = performance.now();
      phaseText = text;
      lastCounts = '';
      if (options.interactive && !options.quiet) spinner = yoctoSpinner({ text, stream }).start();
    },
    done(text) {
      const line = `${text} (${seconds(performance.now() - started)})`;
      if (spinner) spinner.success(line);
      else write(line);
      spinner = undefined;
    },
    fail(text) {
      if (spinner) spinner.error(text);
      spinner = undefined;
    },
    counts(counts) {
      const line = countsBar(counts);
      if (line === lastCounts) return;
      lastCounts = line;
      if (spinner) spinner.text = `${phaseText} ${line}`;
      else write(line);
    },
    note(text) {
      if (spinner) spinner.stop();
      spinner = undefined;
      write(text);
    },
  };
}
