import type { Device } from '@vitrine/contract';
import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { FRAME_CATALOGUE } from '../../packages/server/src/compose/frames/frame-catalogue.ts';

/** The frames issue 38 added to the five of the interface (device-gallery-scenes.ts covers those). */
export const CATALOGUE_DEVICES = [
  'iphone-16',
  'pixel-9',
  'galaxy-s25',
  'ipad-air-11',
  'android-tablet',
  'macbook-air-13',
  'laptop-windows',
  'desktop-display',
  'watch',
  'browser-minimal',
  'terminal',
] as const satisfies readonly Device[];

/** Scale per device so a reference stays a few hundred pixels on its long side. */
const SCALE: Partial<Record<Device, number>> = {
  'ipad-air-11': 0.4,
  'android-tablet': 0.4,
  'macbook-air-13': 0.4,
  'laptop-windows': 0.4,
  'desktop-display': 0.25,
  'browser-minimal': 0.5,
  terminal: 0.5,
  watch: 1,
};

/** Light finishes sit on a dark background and dark ones on a light one, so every edge shows. */
const BACKGROUNDS = ['arctic', 'midnight', 'aurora', 'dusk', 'forest', 'sunset', 'ocean', 'ember'] as const;

/** Which fake capture a device is drawn on (see deviceInput in raster-kit.ts). */
function shotFor(device: Device): 'mobile' | 'desktop' | 'window' {
  const { family } = FRAME_CATALOGUE[device];
  if (family === 'phone' || family === 'watch') return 'mobile';
  if (family === 'browser' || family === 'terminal') return 'window';
  return 'desktop';
}

/** Every new device in every finish: `catalogue-<device>-<finish>`. */
export const CATALOGUE_GALLERY: Record<
  string,
  { shot: 'mobile' | 'desktop' | 'window'; request: StyleRequest }
> = Object.fromEntries(
  CATALOGUE_DEVICES.flatMap((device) =>
    FRAME_CATALOGUE[device].finishes.map((finish, i) => [
      `catalogue-${device}-${finish}`,
      {
        shot: shotFor(device),
        request: {
          device,
          device_color: finish,
          device_scale: SCALE[device] ?? 0.5,
          padding: 32,
          background_preset: BACKGROUNDS[(i + device.length) % BACKGROUNDS.length],
        } satisfies StyleRequest,
      },
    ]),
  ),
);
