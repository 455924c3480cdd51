// The static file server behind `npm run demo`, the example apps and their tests: URL
// prefixes map to folders (or one file), and every response carries the headers a Tessera
// page may need: COOP + COEP for cross-origin isolation (WebAssembly threads), optionally the
// strict Content-Security-Policy the package supports, and CORS + CORP for serving the
// package's files to another origin, as a CDN does. Single byte ranges are served (206).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8', '.bin': 'application/octet-stream' };

/** What a page needs to run Tessera under the strictest policy the package supports. */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";

// The file served at `urlPath` by `routes` ([prefix, folder or file], first match wins), or null.
function resolve(routes, urlPath) {
  const route = routes.find(([prefix]) => urlPath.startsWith(prefix));
  if (!route) return null;
  const [prefix, target] = route;
  if (!prefix.endsWith('/')) return urlPath === prefix ? target : null;
  let relative;
  try {
    relative = decodeURIComponent(urlPath.slice(prefix.length));
  } catch {
    return null;
  }
  const file = path.join(target, relative || 'index.html');
  return file.startsWith(target + path.sep) ? file : null;
}

/**
 * An http.Server over `routes`; `server.requests` counts the requests for each path.
 * @param {{ isolated?: boolean, csp?: boolean, cors?: boolean }} [headers]
 */
export function createStaticServer(routes, { isolated = true, csp = false, cors = false } = {}) {
  const requests = new Map();
  const server = http.createServer((request, response) => {
    const urlPath = new URL(request.url, 'http://localhost').pathname;
    requests.set(urlPath, (requests.get(urlPath) ?? 0) + 1);
    if (isolated) {
      response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    }
    if (csp) response.setHeader('Content-Security-Policy', STRICT_CSP);
    if (cors) {
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    response.setHeader('Cache-Control', 'no-cache');
    const file = resolve(routes, urlPath);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      return response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
    const size = fs.statSync(file).size;
    const type = MIME[path.extname(file)] ?? 'application/octet-stream';
    // One range (bytes=START-END), as the workers of a placed model ask for their weights.
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (range && Number(range[1]) <= Number(range[2]) && Number(range[2]) < size) {
      const [start, end] = [Number(range[1]), Number(range[2])];
      response.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1,
                                'Content-Range': `bytes ${start}-${end}/${size}` });
      return fs.createReadStream(file, { start, end }).on('error', () => response.destroy()).pipe(response);
    }
    response.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' });
    fs.createReadStream(file).on('error', () => response.destroy()).pipe(response);
  });
  server.requests = requests;
  return server;
}

/** Listens on 127.0.0.1 (port 0: any free one); resolves with the server's origin. */
export function listen(server, port = 0) {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => {
    resolve(`http://127.0.0.1:${server.address().port}`);
  }));
}
