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
  const write = (line: string) => {
    if (!options.quiet) stream.write(`${line}\n`);
  };
  return {
    phase(text) {
      started = performance.now();
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
    note(text) {
      if (spinner) spinner.stop();
      spinner = undefined;
      write(text);
    },
  };
}
