import { createApp, type ProcessRole } from '../app.ts';
import type { Config } from '../config/load-config.ts';

function banner(config: Config, url: string): string {
  const key = 'bin/vitrine admin create-key --email you@example.com';
  return [
    '',
    `  Vitrine is running at ${url}`,
    '',
    `  API reference   ${url}/docs`,
    `  Create a key    ${key}`,
    '                  (prints the key on its last line; run it in another terminal, same directory)',
    '',
    '  Try it:',
    `    export VITRINE_KEY=$(${key} | tail -n 1)`,
    `    curl -s -X POST ${url}/v1/capture -H "Authorization: Bearer $VITRINE_KEY" \\`,
    `      -H 'content-type: application/json' -d '{"url": "https://example.com"}'`,
    '    (the answer\'s "url" is the styled image; add "device": "browser-macos" or "title": "..." to taste)',
    '',
    `  Data: ${config.server.dataDir}   Database: ${config.database.kind}   Stop: Ctrl+C`,
    '',
  ].join('\n');
}

/** Starts the HTTP service and stops it gracefully on SIGINT / SIGTERM. */
export async function serve(config: Config, role: ProcessRole = 'all'): Promise<void> {
  const app = await createApp(config, { role });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.http.listen({ host: config.server.host, port: config.server.port });
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const url = config.server.publicUrl.replace(/:\d+$/, `:${port}`);
  process.stderr.write(`${banner(config, url)}  Role: ${role}\n\n`);
  // Launch Chromium and prepare the first page now, so the first capture does not wait for it.
  app.warmUp().catch((error: unknown) => app.http.log.error({ err: error }, 'browser warm-up failed'));
}
