import { safeText } from '../terminal';
import { truncate } from './table';

/** Where a display writes: a terminal (live redraws) or a pipe or file (plain lines). */
export interface DisplayStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** How a display behaves. */
export interface LiveDisplayOptions {
  /** Redraw lines in place (a terminal); otherwise print plain lines now and then. */
  live: boolean;
  /** Plain mode: shortest gap between two lines of the same item (default 5 s). */
  plainIntervalMs?: number;
  /** Live mode: shortest gap between two redraws (default 100 ms). */
  redrawMs?: number;
  now?: () => number;
}

const ERASE_DOWN = '\x1b[0J';

/**
 * Progress lines that update in place on a terminal (one line per item, redrawn at most every
 * `redrawMs`, cut to the terminal's width), or, on a pipe or file, plain lines printed when an item
 * changes for good (`force`) or at most every `plainIntervalMs`. Permanent lines print above the
 * live ones.
 */
export class LiveDisplay {
  readonly #stream: DisplayStream;
  readonly #live: boolean;
  readonly #plainIntervalMs: number;
  readonly #redrawMs: number;
  readonly #now: () => number;
  readonly #lines = new Map<string, string>();
  readonly #plainPrinted = new Map<string, { at: number; line: string }>();
  #drawn = 0;
  #lastDraw = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #suspended = false;

  constructor(stream: DisplayStream, options: LiveDisplayOptions) {
    this.#stream = stream;
    this.#live = options.live;
    this.#plainIntervalMs = options.plainIntervalMs ?? 5_000;
    this.#redrawMs = options.redrawMs ?? 100;
    this.#now = options.now ?? Date.now;
  }

  /** Whether lines are redrawn in place. */
  get live(): boolean {
    return this.#live;
  }

  /** Sets the line of an item (made safe to print, one line); `force` prints it at once in plain mode (a change worth a line). */
  update(key: string, text: string, options: { force?: boolean } = {}): void {
    const line = safeText(text);
    if (!this.#live) {
      const last = this.#plainPrinted.get(key);
      const now = this.#now();
      if (last?.line === line) return;
      if (options.force || !last || now - last.at >= this.#plainIntervalMs) {
        this.#plainPrinted.set(key, { at: now, line });
        this.#stream.write(`${line}\n`);
      }
      return;
    }
    this.#lines.set(key, line);
    this.#scheduleDraw();
  }

  /** Removes an item's live line and prints `line` (when given) for good. */
  finish(key: string, line: string | null): void {
    this.#lines.delete(key);
    this.#plainPrinted.delete(key);
    if (line === null) {
      if (this.#live) this.#scheduleDraw();
      return;
    }
    this.print(line);
  }

  /** Prints permanent lines above the live ones, made safe to print. */
  print(lines: string | readonly string[]): void {
    const text = (typeof lines === 'string' ? [lines] : lines).map((line) => `${safeText(line, { multiline: true })}\n`).join('');
    if (!this.#live) {
      this.#stream.write(text);
      return;
    }
    this.#stream.write(`${this.#erase()}${text}`);
    this.#drawn = 0;
    if (!this.#suspended) this.#draw();
  }

  /** Clears the live lines (before a prompt) until `resume`. */
  suspend(): void {
    this.#suspended = true;
    this.#clearTimer();
    if (this.#live && this.#drawn > 0) this.#stream.write(this.#erase());
    this.#drawn = 0;
  }

  /** Shows the live lines again after `suspend`. */
  resume(): void {
    this.#suspended = false;
    if (this.#live) this.#draw();
  }

  /** Stops redrawing; the last state of the live lines stays on screen. */
  close(): void {
    const pending = this.#timer !== null;
    this.#clearTimer();
    if (this.#live && !this.#suspended && pending) this.#draw();
    this.#lines.clear();
    this.#drawn = 0;
  }

  #scheduleDraw() {
    if (this.#suspended || this.#timer !== null) return;
    const wait = this.#redrawMs - (this.#now() - this.#lastDraw);
    if (wait <= 0) {
      this.#draw();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#draw();
    }, wait);
    this.#timer.unref?.();
  }

  #draw() {
    this.#clearTimer();
    const width = Math.max(20, (this.#stream.columns || 80) - 1);
    const lines = [...this.#lines.values()].map((line) => truncate(line, width));
    this.#stream.write(this.#erase() + lines.map((line) => `${line}\n`).join(''));
    this.#drawn = lines.length;
    this.#lastDraw = this.#now();
  }

  #erase(): string {
    return this.#drawn > 0 ? `\x1b[${this.#drawn}A\r${ERASE_DOWN}` : '';
  }

  #clearTimer() {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
