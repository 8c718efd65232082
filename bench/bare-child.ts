/**
 * bare-playwright in a Node process of its own (forked by bare-process.ts), so that its tree
 * (this Node process and its Chromium) can be measured from /proc exactly as the service's is:
 * CPU per process class and PSS. Takes `{ id, url, fullPage }` messages and answers
 * `{ id, bytes }` or `{ id, error }`; the image stays here, as it would in a developer's script
 * (unless `png: true` asks for it, for the bench's pixel comparison).
 */
import { barePlaywright } from './baselines.ts';

const viewport = JSON.parse(process.argv[2] ?? '{"width":1440,"height":900}') as {
  width: number;
  height: number;
};
const bare = await barePlaywright(viewport);
process.on(
  'message',
  (message: {
    id: number;
    url: string;
    fullPage?: boolean;
    png?: boolean;
    settleMs?: number;
    close?: boolean;
  }) => {
    if (message.close) {
      void bare.close().finally(() => process.exit(0));
      return;
    }
    bare.capture(message.url, { fullPage: message.fullPage, settleMs: message.settleMs }).then(
      (png) =>
        process.send?.({
          id: message.id,
          bytes: png.byteLength,
          ...(message.png ? { png: Buffer.from(png).toString('base64') } : {}),
        }),
      (error: Error) => process.send?.({ id: message.id, error: String(error?.message ?? error) }),
    );
  },
);
process.send?.({ ready: true });
