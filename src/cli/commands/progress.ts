// The progress line of long what-if commands: redrawn in place on stderr, only when stderr is a
// terminal or --progress asks for it, so JSON on stdout and captured logs stay clean.
import type { ProgressListener } from '../../sim/whatif/progress.js';
import type { CliIO } from '../io.js';

export interface ProgressLine {
  readonly update: ProgressListener;
  /** Ends the line (a newline after the last redraw), so what follows starts on its own. */
  end(): void;
}

/** A step of 1% (or of 1000 units when the total is unknown) between redraws: few writes, even for 100,000 pods. */
function redrawDue(done: number, total: number, last: number): boolean {
  if (total > 0) return done === total || Math.floor((done * 100) / total) !== Math.floor((last * 100) / total);
  return Math.floor(done / 1000) !== Math.floor(last / 1000);
}

/** The line for `io`, or undefined when no progress is to be shown. */
export function progressLine(io: CliIO, asked: boolean): ProgressLine | undefined {
  if (!asked && io.stderrIsTerminal?.() !== true) return undefined;
  let lastWhat = '';
  let lastDone = -1;
  let drawn = false;
  return {
    update: (what, done, total) => {
      if (what === lastWhat && !redrawDue(done, total, lastDone)) return;
      lastWhat = what;
      lastDone = done;
      drawn = true;
      const pct = total > 0 ? ` (${Math.floor((done * 100) / total)}%)` : '';
      io.stderr(`\r\x1b[K${what}: ${done}${total > 0 ? `/${total}` : ''}${pct}`);
    },
    end: () => {
      if (drawn) io.stderr('\n');
      drawn = false;
    },
  };
}
