import { invalidParam } from '../errors/app-error.ts';

const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * A project's domain as its lowercase host: accepts `Example.COM`, `https://example.com/pricing`
 * or `example.com.`, keeps an explicit non-default port (`intranet.local:8080`), and refuses
 * anything that is not a dotted host name.
 */
export function normalizeDomain(input: string): string {
  const trimmed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalidParam('domain', 'Must be a domain name like example.com (a URL is accepted too)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidParam('domain', 'Must be a domain name like example.com, or an http(s) URL');
  }
  const host = url.hostname.replace(/\.$/, '');
  if (!HOST_NAME.test(host) && !IPV4.test(host)) {
    throw invalidParam('domain', 'Must be a domain name like example.com (a URL is accepted too)');
  }
  // A self-hosted site may live on another port (`intranet.local:8080`): kept when explicit
  // and not the scheme's default (URL already drops :443 for https and :80 for http).
  return url.port ? `${host}:${url.port}` : host;
}
