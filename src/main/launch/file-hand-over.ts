/**
 * Scene files opened with the app (command line, a second launch, macOS open-file) wait here until
 * the app can submit them, then go to the receiver in arrival order. Each path is passed on once per
 * hand-over.
 */
export class FileHandOver {
  #pending: string[] = [];
  #receiver: ((paths: string[]) => void) | null = null;

  /** Adds files; they are passed on at once when a receiver is set. */
  add(paths: readonly string[]): void {
    const fresh = paths.filter((p) => !this.#pending.includes(p));
    if (fresh.length === 0) return;
    this.#pending.push(...fresh);
    this.#flush();
  }

  /** Sets who submits the files (once the host and window are ready), passing on what waited. */
  receiveWith(receiver: (paths: string[]) => void): void {
    this.#receiver = receiver;
    this.#flush();
  }

  /** Files still waiting. */
  get pending(): readonly string[] {
    return this.#pending;
  }

  #flush(): void {
    if (!this.#receiver || this.#pending.length === 0) return;
    const paths = this.#pending;
    this.#pending = [];
    this.#receiver(paths);
  }
}
