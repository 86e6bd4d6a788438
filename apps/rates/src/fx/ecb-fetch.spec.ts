import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { FetchFailure, fetchSmallText } from './ecb-fetch';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A local HTTP server answering by path; never the internet. */
async function serve(routes: Record<string, Route>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => (routes[request.url ?? ''] ?? ((_, res) => res.writeHead(404).end()))(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const LIMITS = { timeoutMs: 400, maxBytes: 1000, httpsOnly: false };

describe('fetchSmallText', () => {
  let base: string;
  let server: Server;

  beforeAll(async () => {
    ({ url: base, server } = await serve({
      '/daily.xml': (_, response) => response.writeHead(200, { 'content-type': 'text/xml' }).end('<ok/>'),
      '/error': (_, response) => response.writeHead(500).end('oops'),
      '/silent': () => undefined,
      '/trickle': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.write('<a>');
      },
      '/large': (_, response) => response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)),
      '/large-chunked': (_, response) => {
        response.writeHead(200);
        for (let chunk = 0; chunk < 5; chunk++) response.write('y'.repeat(400));
        response.end();
      },
      '/latin1': (_, response) => response.writeHead(200).end(Buffer.from([0x3c, 0xe9, 0x3e])),
      '/to-daily': (_, response) => response.writeHead(302, { location: '/daily.xml' }).end(),
      '/to-ftp': (_, response) => response.writeHead(301, { location: 'ftp://example.com/daily.xml' }).end(),
      '/loop': (_, response) => response.writeHead(307, { location: '/loop' }).end(),
      '/nowhere': (_, response) => response.writeHead(302).end(),
    }));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the body of a 200 as text', async () => {
    await expect(fetchSmallText(`${base}/daily.xml`, LIMITS)).resolves.toBe('<ok/>');
  });

  it.each([
    ['an HTTP error', '/error', /^HTTP 500 from 127\.0\.0\.1:\d+$/],
    ['no answer within the deadline', '/silent', /no complete answer from 127\.0\.0\.1:\d+ within 400 ms/],
    ['a body that stops coming', '/trickle', /within 400 ms/],
    ['a declared length over the bound', '/large', 'the answer is 5000 bytes, more than 1000'],
    ['an undeclared length over the bound', '/large-chunked', 'the answer is more than 1000 bytes'],
    ['a body that is not UTF-8', '/latin1', 'the answer is not UTF-8 text'],
    ['a redirect to another scheme', '/to-ftp', 'redirected to ftp://example.com: only https:// is followed'],
    ['a redirect loop', '/loop', 'more than 3 redirects'],
    ['a redirect without a Location', '/nowhere', /HTTP 302 .* without a Location/],
  ])('refuses %s with a FetchFailure that says so', async (_what, path, message) => {
    const attempt = fetchSmallText(`${base}${path}`, LIMITS);
    await expect(attempt).rejects.toThrow(FetchFailure);
    await expect(attempt).rejects.toThrow(message);
  });

  it('follows a redirect to http outside production, and in production follows none to a non-https address', async () => {
    await expect(fetchSmallText(`${base}/to-daily`, LIMITS)).resolves.toBe('<ok/>');
    await expect(fetchSmallText(`${base}/to-daily`, { ...LIMITS, httpsOnly: true })).rejects.toThrow(/redirected to http:\/\/127\.0\.0\.1:\d+: only https:\/\/ is followed/);
  });

  it('says when nothing listens', async () => {
    const { url, server: closed } = await serve({});
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchSmallText(`${url}/daily.xml`, LIMITS)).rejects.toThrow(/cannot fetch from 127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});
