import pino, { type Logger } from 'pino';

/** Hide signatures and tokens in a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:sig|token|signature)=)[^&]*/gi, '$1[redacted]');
}

/**
 * The node's structured logger. Authorization headers are never serialised, and URL signatures are
 * replaced before a request is logged.
 */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { svc: 'render-node' },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', 'apiKey', 'key'], censor: '[redacted]' },
      serializers: {
        req(req: { method?: string; url?: string; ip?: string; id?: string }) {
          return { id: req.id, method: req.method, url: redactUrl(req.url ?? ''), ip: req.ip };
        },
        res(res: { statusCode?: number }) {
          return { statusCode: res.statusCode };
        },
        err: pino.stdSerializers.err,
      },
    },
    options.destination ?? process.stderr,
  );
}
