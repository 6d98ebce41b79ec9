import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './cli';

/** The Prism command line of the dev dependency @stoplight/prism-cli, run with this test's Node.js. */
export const PRISM_BIN = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/**
 * Whether Prism can run. Without it: false on a developer machine (the caller skips), an error in CI
 * (`CI` set), where a missing Prism must fail the run.
 */
export function requirePrism(): boolean {
  if (existsSync(PRISM_BIN)) return true;
  if (process.env.CI) throw new Error(`Prism is required for the integration tests in CI but ${PRISM_BIN} does not exist. Run \`npm ci\` (it is a dev dependency).`);
  return false;
}

/** One line of Prism's log: who logged it, the request it concerns, its level and message. */
export interface PrismLogLine {
  logger: string;
  request: string | null;
  level: string;
  message: string;
}

/** A request or response Prism found against the document, or a request it refused to forward. */
export interface PrismViolation extends PrismLogLine {
  raw: string;
}

/** A running `prism proxy`. */
export interface PrismProxy {
  url: string;
  /** Everything Prism printed so far (colours off). */
  log(): string;
  /** Every violation Prism logged so far. */
  violations(): PrismViolation[];
  stop(): Promise<void>;
}

/**
 * One line of Prism's log as printed with colours off: `[time] › [LOGGER] <method> <path> <symbol>
 * <level> <message>` (the request part only on the HTTP server's lines); null for other lines.
 */
export function parsePrismLine(line: string): PrismLogLine | null {
  const match = /^\[[^\]]+\]\s+›\s+\[([A-Z ]+)\]\s+(?:(\w+ \/\S*)\s+)?\S+\s+(\w+)\s+(.*)$/.exec(line.trim());
  if (!match) return null;
  return { logger: match[1]!, request: match[2] ?? null, level: match[3]!, message: match[4]!.trim() };
}

/**
 * The violations in a Prism log: every `Violation:` the validator logged (request or response, at
 * any level), every request Prism ended with an error of its own (with `--errors`, a request or
 * response that breaks the document is answered by Prism instead of passed on), and anything else
 * it logged as a warning or worse.
 */
export function prismViolations(log: string): PrismViolation[] {
  const serious = new Set(['warning', 'warn', 'error', 'fatal']);
  return log
    .split('\n')
    .map((raw) => ({ raw, line: parsePrismLine(raw) }))
    .filter(({ line }) => line !== null && (line.message.startsWith('Violation:') || serious.has(line.level)))
    .map(({ raw, line }) => ({ ...line!, raw }));
}

/**
 * Starts `prism proxy <document> <upstream> --errors` on a free port of 127.0.0.1, with colours off
 * so its log parses, and waits until it listens.
 */
export async function startPrismProxy(document: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [PRISM_BIN, 'proxy', document, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 120 s:\n${log}`)), 120_000);
    const check = () => {
      if (!log.includes('Prism is listening on')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code} before listening:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    violations: () => prismViolations(log),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
