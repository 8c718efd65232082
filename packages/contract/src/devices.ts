import { z } from 'zod';
import { DEVICES } from './compose-fields.ts';
import type { RouteDefinition } from './routes.ts';

const size = z.object({ width: z.number().int(), height: z.number().int() });

/** One frame of the device catalogue. */
export const deviceItemSchema = z.object({
  device: z.enum(DEVICES).meta({ description: 'The name `device` accepts' }),
  label: z.string().meta({ description: 'A readable name (frames are drawn by us: no vendor artwork)' }),
  family: z.enum(['phone', 'tablet', 'laptop', 'desktop', 'watch', 'browser', 'terminal']),
  screen: size.meta({
    description:
      "The whole screen in CSS px (the status or menu bar included); a window's follows the capture",
  }),
  viewport: size.meta({ description: 'The capture viewport the device applies when the request has none' }),
  dpr: z.number().meta({ description: 'The capture device scale factor the device applies' }),
  mobile: z
    .boolean()
    .meta({ description: 'Whether the capture emulates a mobile browser (touch, mobile UA)' }),
  finishes: z
    .array(
      z.object({
        name: z.string().meta({ description: 'A `device_color` value' }),
        color: z.string().meta({ description: 'Its base colour, #rrggbb' }),
        thumbnail_url: z.url().meta({ description: 'A small PNG of the frame in this finish' }),
      }),
    )
    .meta({ description: 'Named finishes, the default first; `device_color` also takes any CSS colour' }),
  thumbnail_url: z.url().meta({ description: 'A small PNG of the frame in its default finish' }),
});
export type DeviceItem = z.infer<typeof deviceItemSchema>;

export const deviceListResponseSchema = z.object({ devices: z.array(deviceItemSchema) });
export type DeviceListResponse = z.infer<typeof deviceListResponseSchema>;

/** The device catalogue's route, spread into `ROUTES` (public, like the font catalogue). */
export const DEVICE_CATALOGUE_ROUTES = {
  listDevices: {
    operationId: 'listDevices',
    method: 'GET',
    path: '/v1/devices',
    summary: 'The device catalogue: every frame `device` accepts, its finishes and thumbnails',
    tag: 'Devices',
    access: { kind: 'public' },
    rateLimit: 'default',
    success: {
      status: 200,
      schema: deviceListResponseSchema,
      description: 'Every device frame, in the order of the `device` enum',
    },
    errors: [],
  },
} as const satisfies Record<string, RouteDefinition>;
