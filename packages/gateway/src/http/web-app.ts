import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Context, Next } from 'hono';
import { failure } from './envelope.js';

/** Paths the web app never answers: the API, OAuth, webhooks and health keep their own 404s. */
const RESERVED_PREFIXES = ['/api', '/oauth', '/webhooks', '/health'];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite names every file under `assets/` by a hash of its content: a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The page's own rules: scripts and connections to this origin only, no framing. Inline styles
 * are allowed because the canvas positions nodes with style attributes.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const isReserved = (path: string) =>
  RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** The file `path` names inside `root`, or undefined for anything that would leave it. */
function fileInside(root: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment === '..')) return undefined;
  const file = resolve(join(root, decoded));
  return file.startsWith(root + sep) ? file : undefined;
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return (await stat(file)).isFile() ? await readFile(file) : undefined;
  } catch {
    return undefined;
  }
}

function send(c: Context, body: Buffer, file: string, cacheControl: string): Response {
  c.header('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  c.header('Cache-Control', cacheControl);
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(new Uint8Array(body));
}

/**
 * Serves the built web app (`packages/web/dist`) on every GET or HEAD outside the API: hashed
 * files under `/assets/` with a year-long cache, other files of the folder's top level as they
 * are, and `index.html` for any other path (the app routes in the browser). When the app is not
 * built, `/` says so.
 * @example app.get('*', webApp('/srv/svc/packages/web/dist'))
 */
export function webApp(rootFolder: string) {
  const root = resolve(rootFolder);
  const indexFile = join(root, 'index.html');
  return async (c: Context, next: Next): Promise<Response | void> => {
    const path = c.req.path;
    if (isReserved(path)) return next();
    if (path.startsWith('/assets/') || extname(path) !== '') {
      const file = fileInside(root, path);
      const body = file === undefined ? undefined : await readIfFile(file);
      if (body === undefined || file === undefined) return next();
      return send(c, body, file, path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
    }
    const index = await readIfFile(indexFile);
    if (index === undefined) {
      return failure(c, 404, 'NOT_FOUND', 'the web app is not built: run `npm run build` in the repository root');
    }
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    return send(c, index, indexFile, 'no-cache');
  };
}
