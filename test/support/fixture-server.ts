import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const FIXTURE_HOST = '127.0.0.2';
export const CANARY_HOST = '127.0.0.1';
export const FIXTURE_PAGES_DIR = path.resolve(import.meta.dirname, '../fixtures/pages');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

/**
 * Real front-end libraries from npm (dev dependencies), served to fixture pages under /vendor/
 * (no CDN: tests reach only loopback).
 */
export const VENDOR_FILES: Record<string, string> = {
  '/vendor/chart.js': 'chart.js/dist/chart.umd.min.js',
  '/vendor/countup.js': 'countup.js/dist/countUp.umd.js',
  '/vendor/aos.js': 'aos/dist/aos.js',
  '/vendor/aos.css': 'aos/dist/aos.css',
};
const NODE_MODULES = path.resolve(import.meta.dirname, '../../node_modules');

/**
 * Real templates from npm, kept with their licences under test/element/templates (issue 33),
 * served under this path on every fixture server (they load their libraries from local copies).
 */
export const TEMPLATES_PATH = '/element-templates/';
const TEMPLATES_DIR = path.resolve(import.meta.dirname, '../element/templates');

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface RunningServer {
  host: string;
  port: number;
  origin: string;
  /** Requests received, by path (the canary's must stay empty in SSRF tests). */
  hits: string[];
  route(pathname: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

/**
 * A static server for fixture pages (default 127.0.0.2, which tests allow as a target), with
 * programmable routes for redirects and slow or broken responses.
 */
export async function startFixtureServer(
  options: {
    host?: string;
    root?: string;
    port?: number;
    /** Told of every request as it arrives, beside `hits` (the bench's fixture process forwards them). */
    onHit?: (hit: string) => void;
  } = {},
): Promise<RunningServer> {
  const host = options.host ?? FIXTURE_HOST;
  const root = options.root ?? FIXTURE_PAGES_DIR;
  const routes = new Map<string, RouteHandler>();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const hit = url.pathname + url.search;
    hits.push(hit);
    options.onHit?.(hit);
    const custom = routes.get(url.pathname);
    if (custom) return custom(req, res);
    const vendor = VENDOR_FILES[url.pathname];
    if (vendor) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(vendor)] ?? 'text/javascript' });
      fs.createReadStream(path.join(NODE_MODULES, vendor)).pipe(res);
      return;
    }
    const templates = url.pathname.startsWith(TEMPLATES_PATH);
    const base = templates ? TEMPLATES_DIR : root;
    const file = path.join(
      base,
      path
        .normalize(decodeURIComponent(templates ? url.pathname.slice(TEMPLATES_PATH.length) : url.pathname))
        .replace(/^(\.\.[/\\])+/, ''),
    );
    if (!file.startsWith(base) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    port,
    origin: `http://${host}:${port}`,
    hits,
    route: (pathname, handler) => routes.set(pathname, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The canary on 127.0.0.1: any hit means a guard let a request through. */
export function startCanary(): Promise<RunningServer> {
  return startFixtureServer({ host: CANARY_HOST, root: path.join(FIXTURE_PAGES_DIR, '__canary_empty__') });
}
