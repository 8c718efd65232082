/**
 * A browser stand-in for the server-rendered web pages: keeps cookies between requests, posts
 * forms, and reads the CSRF token out of the last page. Redirects are not followed, so tests
 * can see where a page sends the user.
 */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export interface WebClient {
  cookies: Map<string, string>;
  get(path: string, headers?: Record<string, string>): Promise<WebResponse>;
  post(
    path: string,
    form: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<WebResponse>;
  /** The CSRF token of a page's first form. */
  csrfOf(page: WebResponse): string;
  /** Signs in through /login and returns the redirect answer. */
  signIn(email: string, password: string): Promise<WebResponse>;
}

export function createWebClient(baseUrl: string): WebClient {
  const cookies = new Map<string, string>();

  function remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => {
        const [key, val] = a.trim().split('=');
        if (key?.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key?.toLowerCase() === 'expires') return Date.parse(val ?? '') <= Date.now();
        return false;
      });
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  async function send(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) {
    const cookieHeader = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    remember(response.headers);
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
    };
  }

  const client: WebClient = {
    cookies,
    get: (path, headers = {}) => send('GET', path, undefined, headers),
    post: (path, form, headers = {}) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(form)) {
        for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
      }
      return send('POST', path, params.toString(), headers);
    },
    csrfOf(page) {
      const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
      if (!match) throw new Error(`No CSRF token on the page (status ${page.status})`);
      return match[1]!;
    },
    async signIn(email, password) {
      const page = await client.get('/login');
      return client.post('/login', { email, password, _csrf: client.csrfOf(page) });
    },
  };
  return client;
}
