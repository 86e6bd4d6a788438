import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { JsonLogger, ServiceClient, acceptRequestId } from '@hotel/platform';
import { GatewayAppModule } from './gateway-app.module';
import { GatewayEnv } from './gateway.env';
import { installEnvelope } from './http/envelope';
import { ErrorEnvelope } from './http/http-error.filter';
import { loadTlsMaterial } from './tls/certificate';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface RunningGateway {
  app: NestFastifyApplication;
  /** https://host:port of the TLS listener. */
  url: string;
  /** http://host:port of the behind-proxy listener, when HTTP_PORT is set. */
  plainUrl?: string;
  certificate: string;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const PLAIN_HTTP_REFUSED: ErrorEnvelope = {
  data: null,
  success: false,
  code: 'FORBIDDEN',
  message: 'plain HTTP is accepted only from a TLS-terminating proxy that sets X-Forwarded-Proto: https; use HTTPS',
};

const NOT_JSON: ErrorEnvelope = {
  data: null,
  success: false,
  code: 'UNSUPPORTED_MEDIA_TYPE',
  message: 'request bodies must be JSON with Content-Type: application/json',
};

function hasBody(headers: IncomingMessage['headers']): boolean {
  return (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);
}

export async function startGateway(env: GatewayEnv): Promise<RunningGateway> {
  const tls = await loadTlsMaterial({ certFile: env.TLS_CERT, keyFile: env.TLS_KEY, dataDir: env.DATA_DIR });
  const services = new ServiceClient(env.NATS_URL, env.RPC_TIMEOUT_MS, 'gateway');
  let plainServer: Server | undefined;
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => acceptRequestId(request.headers['x-request-id']),
    // One router behind two listeners: HTTPS, and plain HTTP for a TLS-terminating proxy.
    serverFactory: (handler: Handler) => {
      if (env.HTTP_PORT !== undefined) plainServer = createHttpServer(handler);
      return createHttpsServer({ key: tls.key, cert: tls.cert }, handler);
    },
  });
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(GatewayAppModule.register(env, services), adapter, {
    logger,
  });
  const fastify = app.getHttpAdapter().getInstance();
  installEnvelope(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const encrypted = (request.raw.socket as TLSSocket).encrypted === true;
    if (!encrypted && request.headers['x-forwarded-proto'] !== 'https') {
      reply.code(403).type('application/json; charset=utf-8').send(JSON.stringify(PLAIN_HTTP_REFUSED));
      return;
    }
    if (hasBody(request.headers) && !isJson(request.headers['content-type'])) {
      reply.code(415).type('application/json; charset=utf-8').send(JSON.stringify(NOT_JSON));
      return;
    }
    done();
  });
  const accessLog = new Logger('http');
  fastify.addHook('onResponse', (request, reply, done) => {
    if (logger.isEnabled('info')) {
      accessLog.log({
        msg: 'request',
        requestId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      });
    }
    done();
  });
  await services.connect();
  await app.listen(env.PORT, env.HOST);
  const secureAddress = app.getHttpServer().address() as AddressInfo;
  const url = `https://${hostForUrl(env.HOST)}:${secureAddress.port}`;
  let plainUrl: string | undefined;
  if (plainServer) {
    const server = plainServer;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.HTTP_PORT, env.HOST, () => resolve());
    });
    plainUrl = `http://${hostForUrl(env.HOST)}:${(server.address() as AddressInfo).port}`;
  }
  return {
    app,
    url,
    plainUrl,
    certificate: tls.cert,
    close: async () => {
      await new Promise<void>((resolve) => (plainServer ? plainServer.close(() => resolve()) : resolve()));
      await app.close();
      await services.close();
    },
  };
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
