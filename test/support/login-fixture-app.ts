import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE_HOST } from './fixture-server.ts';

/** The password every fixture user signs in with. */
export const FIXTURE_PASSWORD = 'correct horse battery staple';
export const SESSION_COOKIE = 'fixture_session';
/** The localStorage key the storage page reads, and the value it shows as "ready". */
export const STORAGE_KEY = 'fixture-token';

/** Colours the tests read from the screenshots: signed in, the login page, the storage page. */
export const COLOURS: Record<
  'signedIn' | 'login' | 'storageSet' | 'storageMissing',
  [number, number, number]
> = {
  signedIn: [22, 163, 74],
  login: [220, 38, 38],
  storageSet: [37, 99, 235],
  storageMissing: [107, 114, 128],
};

const rgb = (c: readonly number[]) => `rgb(${c.join(',')})`;

export interface CookieSighting {
  host: string;
  path: string;
  cookie: string | undefined;
}

export interface LoginFixtureApp {
  port: number;
  /** Every request's Host, path and Cookie header, to check where cookies went. */
  sightings: CookieSighting[];
  /** A session as if `name` had signed in through the form: the cookie value to store. */
  issueSession(name: string): string;
  /** Ends a session (the server forgets it: its cookie no longer signs in). */
  endSession(token: string): void;
  url(host: string, path: string): string;
  close(): Promise<void>;
}

function page(title: string, background: string, body: string, script = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>html,body{margin:0;height:100%;font:32px/1.4 sans-serif;color:#fff;background:${background}}
main{padding:40px}</style></head><body><main>${body}</main>${script}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small web app behind a login, for auth profile tests (issue 12): a real login form that sets
 * an HttpOnly session cookie (Secure too when reached on a loopback address or over https), a
 * dashboard showing "Signed in as <name>" only with a valid session (otherwise a
 * redirect to the login page), a page showing a localStorage value, and a page that frames
 * another host (which records the cookies it receives). It answers for any Host, so tests reach
 * it under several names that their resolver maps to 127.0.0.2.
 */
export async function startLoginFixtureApp(): Promise<LoginFixtureApp> {
  const sessions = new Map<string, string>();
  const sightings: CookieSighting[] = [];

  function sessionName(req: http.IncomingMessage): string | undefined {
    const header = req.headers.cookie ?? '';
    for (const part of header.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === SESSION_COOKIE) {
        const who = sessions.get(rest.join('='));
        if (who) return who;
      }
    }
    return undefined;
  }

  function issueSession(name: string): string {
    const token = crypto.randomBytes(24).toString('base64url');
    sessions.set(token, name);
    return token;
  }

  const html = (
    res: http.ServerResponse,
    status: number,
    body: string,
    headers: http.OutgoingHttpHeaders = {},
  ) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    sightings.push({ host: req.headers.host ?? '', path: url.pathname, cookie: req.headers.cookie });
    // Secure where the browser accepts it over this test's plain http: Chromium treats loopback
    // addresses (not names mapped to them) as secure origins.
    const secure =
      (req.headers['x-forwarded-proto'] ?? '') === 'https' ||
      /^127\.\d+\.\d+\.\d+(:\d+)?$/.test(req.headers.host ?? '');

    if (url.pathname === '/login' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const name = form.get('username')?.trim() ?? '';
        if (name === '' || form.get('password') !== FIXTURE_PASSWORD) {
          html(res, 401, page('Sign in', rgb(COLOURS.login), '<p id="error">Wrong name or password</p>'));
          return;
        }
        const token = issueSession(name);
        res
          .writeHead(303, {
            location: '/dashboard',
            'set-cookie': `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
          })
          .end();
      });
      return;
    }
    if (url.pathname === '/login') {
      html(
        res,
        200,
        page(
          'Sign in',
          rgb(COLOURS.login),
          `<h1>Please sign in</h1><form method="post" action="/login">
<label>Name <input name="username" id="username"></label>
<label>Password <input name="password" id="password" type="password"></label>
<button id="sign-in" type="submit">Sign in</button></form>`,
          // ?auto=<name> plays the user: it types the name and password and submits the form,
          // so a test can sign in through a real browser window it cannot type into.
          url.searchParams.has('auto')
            ? `<script>
setTimeout(() => {
  document.getElementById('username').value = ${JSON.stringify(url.searchParams.get('auto'))};
  document.getElementById('password').value = ${JSON.stringify(FIXTURE_PASSWORD)};
  document.querySelector('form').submit();
}, 300);
</script>`
            : '',
        ),
      );
      return;
    }
    if (url.pathname === '/dashboard') {
      const who = sessionName(req);
      if (!who) {
        res.writeHead(302, { location: '/login' }).end();
        return;
      }
      html(
        res,
        200,
        page('Dashboard', rgb(COLOURS.signedIn), `<h1 id="who">Signed in as ${escapeHtml(who)}</h1>`),
      );
      return;
    }
    if (url.pathname === '/framed') {
      // A signed-in page that frames another site (its host is given as ?frame=host:port).
      const frame = url.searchParams.get('frame') ?? '';
      html(
        res,
        200,
        page(
          'Framed',
          rgb(COLOURS.signedIn),
          `<h1>${sessionName(req) ? 'Signed in' : 'Anonymous'}</h1><iframe src="http://${escapeHtml(frame)}/frame-content" width="300" height="100"></iframe>`,
        ),
      );
      return;
    }
    if (url.pathname === '/frame-content') {
      html(res, 200, page('Frame', '#000', '<p>third party</p>'));
      return;
    }
    if (url.pathname === '/storage') {
      html(
        res,
        200,
        page(
          'Storage',
          rgb(COLOURS.storageMissing),
          '<h1 id="value">No token</h1>',
          `<script>
const token = localStorage.getItem(${JSON.stringify(STORAGE_KEY)});
if (token) {
  document.body.style.background = ${JSON.stringify(rgb(COLOURS.storageSet))};
  document.getElementById('value').textContent = 'Token: ' + token;
}
</script>`,
        ),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, FIXTURE_HOST, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    sightings,
    issueSession,
    endSession: (token) => void sessions.delete(token),
    url: (host, path) => `http://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
