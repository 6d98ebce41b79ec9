/** Bytes of lines gathered before they are sent without waiting for the timer. */
const BATCH_BYTES = 32 * 1024;
/** Longest line sent whole, in characters. */
const MAX_LINE_CHARS = 2000;

/**
 * Gathers the lines Blender prints on a worker and sends them to the node in batches (about once a
 * second, sooner when many arrive), one batch at a time, in order. Each line is passed through
 * `strip` first, so the worker's own folders never leave it. A batch the node does not take is
 * dropped: a log is never worth failing a render for.
 */
export class WorkerLogSender {
  private lines: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly send: (text: string) => Promise<void>,
    private readonly strip: (line: string) => string,
    private readonly intervalMs = 1000,
  ) {}

  /** Add one line Blender printed. */
  line(line: string): void {
    const short = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line;
    const text = `${this.strip(short)}\n`;
    this.lines.push(text);
    this.bytes += text.length;
    if (this.bytes >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Send what has been gathered so far. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.bytes = 0;
    this.chain = this.chain.then(() => this.send(text).catch(() => undefined));
  }

  /** Send the rest and wait until every batch has been sent or dropped. */
  async finish(): Promise<void> {
    this.flush();
    await this.chain;
  }
}
