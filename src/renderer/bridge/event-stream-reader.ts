/** The data of each complete server-sent event in `buffer`, and the unfinished rest to keep. */
export function takeEvents(buffer: string): { data: string[]; rest: string } {
  const text = buffer.replace(/\r\n?/g, '\n');
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const data: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line === 'data' || line.startsWith('data:'));
    if (lines.length === 0) continue;
    data.push(lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n'));
  }
  return { data, rest };
}

/** Where and how to read an event stream. */
export interface EventStreamOptions {
  url: string;
  /** Headers of each connection (read again on every reconnect). */
  headers: () => Record<string, string>;
  onData: (data: string) => void;
  /** Wait before reconnecting after the connection drops (default 2 s, as the server's `retry:`). */
  retryMs?: number;
}

/**
 * Reads server-sent events with `fetch`, which (unlike EventSource) can send headers: browser mode's
 * page secret goes in one. Reconnects after the connection drops; stops for good on an error status,
 * as EventSource does. Answers the function that stops it.
 */
export function readEventStream(options: EventStreamOptions): () => void {
  const controller = new AbortController();
  let stopped = false;
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const run = async (): Promise<void> => {
    while (!stopped) {
      try {
        const response = await fetch(options.url, { headers: options.headers(), credentials: 'same-origin', cache: 'no-store', signal: controller.signal });
        if (!response.ok || !response.body) return;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          const { data, rest } = takeEvents(buffer + chunk.value);
          buffer = rest;
          for (const item of data) options.onData(item);
        }
      } catch {
        // Dropped or stopped: reconnect unless stopped.
      }
      if (!stopped) await wait(options.retryMs ?? 2000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}
