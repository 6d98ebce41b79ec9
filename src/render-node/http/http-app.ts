import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { HttpError, toHttpError, writeClientError } from '../http-error';
import { redactUrl } from '../logger';

/**
 * The node's Fastify server before any route: JSON errors in the API's shape for every failure
 * (malformed requests, unknown routes, thrown errors), one log line per request with signatures
 * redacted, a 1 MiB body limit for JSON, and connections closed at once on close.
 */
export function createHttpApp(log: Logger): FastifyInstance {
  const fastifyLogger: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance: fastifyLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    clientErrorHandler: writeClientError,
    frameworkErrors: (err, _request, reply) => {
      const http = toHttpError(err);
      reply.raw.writeHead(http.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(http.body()));
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    const line = { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (reply.statusCode >= 500 && reply.statusCode !== 503) request.log.error(line, 'request failed');
    else if (reply.statusCode === 503) request.log.info(line, 'request refused: the node is shutting down');
    else request.log.debug(line, 'request');
  });
  app.setErrorHandler((err, request, reply) => {
    const http = toHttpError(err);
    if (http.code === 'shutting_down') request.log.info({ err }, 'request stopped: the node is shutting down');
    else if (http.statusCode >= 500) request.log.error({ err }, 'request failed');
    if (request.method === 'PUT' && !request.raw.readableEnded) keepReadingOrClose(reply.raw, http);
    reply.code(http.statusCode).headers(http.headers).type('application/json').send(http.body());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).type('application/json').send(new HttpError(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`).body());
  });
  return app;
}

/**
 * The connection of a PUT answered before its body arrived. A refused body is not worth reading: the
 * connection closes after the answer. A PUT stopped because the node shuts down keeps its connection
 * (reading and dropping the rest of the body) until the client hangs up or the node closes it, even when
 * the client asked to close: closing at once would reset the connection while the client still sends,
 * and the client would see a broken pipe instead of the 503 that tells it to send again later.
 */
function keepReadingOrClose(response: ServerResponse, http: HttpError): void {
  if (http.code === 'shutting_down') response.shouldKeepAlive = true;
  else response.setHeader('Connection', 'close');
}
