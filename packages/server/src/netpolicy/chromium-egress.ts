/** Chromium's rule that removes the implicit "never proxy localhost" exception. */
export const PROXY_LOOPBACK_RULE = '<-loopback>';

/** Playwright launch settings that route every Chromium connection through the egress proxy. */
export interface ChromiumEgressLaunchOptions {
  proxy: { server: string; bypass: string };
  args: string[];
}

/**
 * Launch options for `chromium.launch()` that force all traffic through the pinned egress proxy
 * (security.md section 1, items 2 and 3): loopback is proxied too (`<-loopback>`, in Playwright's
 * `proxy.bypass` and as a switch, as checked on Chromium 156), background services that would
 * open their own connections are off, WebRTC may only use proxied UDP, and QUIC is disabled so
 * nothing bypasses the HTTP proxy. Spread it into the launch options and append your own args
 * after `args`.
 */
export function chromiumEgressLaunchOptions(proxyUrl: string): ChromiumEgressLaunchOptions {
  return {
    proxy: { server: proxyUrl, bypass: PROXY_LOOPBACK_RULE },
    args: [
      `--proxy-bypass-list=${PROXY_LOOPBACK_RULE}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--dns-prefetch-disable',
      '--disable-domain-reliability',
      '--disable-client-side-phishing-detection',
      '--no-pings',
    ],
  };
}

/**
 * Browser-context options every capture context needs for the egress guarantees to hold: service
 * workers could fetch outside the page's lifetime, downloads would write files.
 */
export const CHROMIUM_EGRESS_CONTEXT_OPTIONS = {
  serviceWorkers: 'block',
  acceptDownloads: false,
} as const;
