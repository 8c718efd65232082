import {
  type DEVICE_CATALOGUE_ROUTES,
  DEVICES,
  type Device,
  type DeviceListResponse,
} from '@vitrine/contract';
import type { FastifyInstance } from 'fastify';
import { FINISH_COLORS } from '../../compose/frames/device-finish.ts';
import type { DeviceThumbnails } from '../../compose/frames/device-thumbnails.ts';
import { FRAME_CATALOGUE } from '../../compose/frames/frame-catalogue.ts';
import { frameLayout } from '../../compose/frames/frame-geometry.ts';
import { notFound } from '../../errors/app-error.ts';
import type { RouteHandler } from '../route-handler.ts';

export interface DeviceCatalogueHandlers {
  listDevices: RouteHandler<typeof DEVICE_CATALOGUE_ROUTES.listDevices>;
}

/** Where a device's thumbnail is served (registerDeviceThumbnailRoute). */
export function deviceThumbnailUrl(publicUrl: string, device: Device, finish: string): string {
  return `${publicUrl.replace(/\/$/, '')}/cdn/devices/${device}/${encodeURIComponent(finish)}.png`;
}

/** The catalogue as GET /v1/devices lists it: the same table the frames are drawn from. */
export function deviceList(publicUrl: string): DeviceListResponse {
  return {
    devices: DEVICES.map((device) => {
      const spec = FRAME_CATALOGUE[device];
      const { screen } = frameLayout(spec, spec.viewport.width, spec.viewport.height);
      const finishes = spec.finishes.map((name) => ({
        name,
        color: (FINISH_COLORS[name] ?? '#888888').toLowerCase(),
        thumbnail_url: deviceThumbnailUrl(publicUrl, device, name),
      }));
      return {
        device,
        label: spec.label,
        family: spec.family,
        screen: { width: screen.width, height: screen.height },
        viewport: { ...spec.viewport },
        dpr: spec.dpr,
        mobile: spec.isMobile,
        finishes,
        thumbnail_url: finishes[0]?.thumbnail_url ?? deviceThumbnailUrl(publicUrl, device, ''),
      };
    }),
  };
}

/** Handler of GET /v1/devices. */
export function deviceCatalogueHandlers(publicUrl: string): DeviceCatalogueHandlers {
  const list = deviceList(publicUrl);
  return { listDevices: async () => list };
}

/**
 * GET /cdn/devices/:device/:finish.png: a device's thumbnail, drawn on first request and kept
 * (immutable for a build: the art is code). Outside the API table, like the background assets.
 */
export function registerDeviceThumbnailRoute(app: FastifyInstance, thumbnails: DeviceThumbnails): void {
  app.get<{ Params: { device: string; file: string } }>(
    '/cdn/devices/:device/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const match = /^(.+)\.png$/.exec(request.params.file);
      const device = request.params.device as Device;
      const png = match && DEVICES.includes(device) ? await thumbnails.png(device, match[1] as string) : null;
      if (!png) throw notFound('Device thumbnail');
      return reply
        .headers({
          'content-type': 'image/png',
          'content-length': png.length,
          'cache-control': 'public, max-age=86400',
        })
        .send(png);
    },
  );
}
