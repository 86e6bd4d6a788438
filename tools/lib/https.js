// @ts-check
// A small HTTPS client for the workspace's commands (start, chaos): it accepts the
// gateway's self-signed development certificate and gives up after a timeout.
const https = require('node:https');

// A kept-alive connection idle for 2 s is closed here, before the gateway closes it (5 s by
// default): otherwise a request may go out on a connection the server is closing ("socket hang up").
const sharedAgent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 256, timeout: 2000 });

/**
 * @typedef {object} RequestOptions
 * @property {import('node:http').OutgoingHttpHeaders} [headers]
 * @property {unknown} [json] the body, sent as JSON
 * @property {number} [timeoutMs] how long to wait for the answer (15 s)
 * @property {import('node:https').Agent | false} [agent] the shared keep-alive agent unless given; false for a fresh connection
 */

/**
 * An HTTP answer. `body` is the parsed JSON (or the text when it is not JSON, undefined
 * when empty): the platform's answers, of whatever shape the endpoint gives, which the
 * callers read as they are (untyped JSON, hence any).
 * @typedef {object} Answer
 * @property {number} status
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {any} body
 */

/**
 * One request. Resolves with {status, headers, body (parsed JSON or text)} for any
 * HTTP answer; rejects with an error whose `code` says what happened otherwise
 * (ECONNREFUSED, ECONNRESET, ETIMEDOUT for no answer within timeoutMs, ...).
 * @param {string | URL} base
 * @param {string} method
 * @param {string} pathName
 * @param {RequestOptions} [options]
 * @returns {Promise<Answer>}
 */
function request(base, method, pathName, options = {}) {
  const { headers = {}, json, timeoutMs = 15_000, agent = sharedAgent } = options;
  const payload = json === undefined ? undefined : JSON.stringify(json);
  const allHeaders = { ...headers, ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) };
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(pathName, base), { method, headers: allHeaders, agent, rejectUnauthorized: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: the text
        }
        // A response (unlike a request a server receives) always has its status code.
        resolve({ status: /** @type {number} */ (res.statusCode), headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => {
      const error = /** @type {NodeJS.ErrnoException} */ (new Error(`no answer within ${timeoutMs} ms`));
      error.code = 'ETIMEDOUT';
      req.destroy(error);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * Whether the URL answers 200 (a fresh connection each time).
 * @param {string} url
 */
async function answers200(url, timeoutMs = 3000) {
  try {
    return (await request(url, 'GET', '', { agent: false, timeoutMs })).status === 200;
  } catch {
    return false;
  }
}

/**
 * Polls the URL until it answers 200 (true), the time is up or stopped() says so (false).
 * @param {string} url
 * @param {number} timeoutMs
 * @param {{ stopped?: () => boolean, intervalMs?: number }} [options]
 */
async function waitUntil200(url, timeoutMs, { stopped = () => false, intervalMs = 300 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopped()) {
    if (await answers200(url)) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/**
 * Closes the shared agent's idle keep-alive connections (it stays usable): after a
 * quiet spell a server may be closing one just as a request is sent on it.
 */
function closeIdleConnections() {
  for (const sockets of Object.values(sharedAgent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

module.exports = { request, answers200, waitUntil200, closeIdleConnections };
