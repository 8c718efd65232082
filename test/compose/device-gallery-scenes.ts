import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';

/** Halved lengths, like the main gallery, so references stay small. */
const half = (r: StyleRequest): StyleRequest => ({ padding: 32, title_size: 28, subtitle_size: 13, ...r });

/** Device frames at device_scale 0.5; `shot` picks the fake capture and the DPR it claims. */
export const DEVICE_GALLERY: Record<
  string,
  { shot: 'mobile' | 'desktop' | 'window'; request: StyleRequest }
> = {
  'device-iphone-light': {
    shot: 'mobile',
    request: half({ device: 'iphone-16-pro', device_scale: 0.5, background_preset: 'arctic' }),
  },
  'device-iphone-dark-natural': {
    shot: 'mobile',
    request: half({
      device: 'iphone-16-pro',
      device_scale: 0.5,
      device_color: 'natural-titanium',
      background_preset: 'midnight',
    }),
  },
  'device-iphone-white-title': {
    shot: 'mobile',
    request: half({
      device: 'iphone-16-pro',
      device_scale: 0.5,
      device_color: 'white-titanium',
      background_preset: 'sunset',
      title: 'Money, simply',
    }),
  },
  'device-iphone-desert-bottom-cropped': {
    shot: 'mobile',
    request: half({
      device: 'iphone-16-pro',
      device_scale: 0.5,
      device_color: 'desert-titanium',
      layout: 'bottom-cropped',
      background_preset: 'ember',
      title: 'Your wallet, calmer',
    }),
  },
  'device-iphone-css-tint-scale': {
    shot: 'mobile',
    request: half({
      device: 'iphone-16-pro',
      device_scale: 0.3,
      device_color: '#1E3A8A',
      aspect_ratio: '16:9',
      background_preset: 'ocean',
    }),
  },
  'device-macbook-light-silver': {
    shot: 'desktop',
    request: half({
      device: 'macbook-pro-16',
      device_scale: 0.5,
      device_color: 'silver',
      background_preset: 'arctic',
    }),
  },
  'device-macbook-dark': {
    shot: 'desktop',
    request: half({ device: 'macbook-pro-16', device_scale: 0.5, background_preset: 'midnight' }),
  },
  'device-macbook-top-cropped': {
    shot: 'desktop',
    request: half({
      device: 'macbook-pro-16',
      device_scale: 0.5,
      layout: 'top-cropped',
      background_preset: 'dusk',
    }),
  },
  'device-ipad-light-silver': {
    shot: 'desktop',
    request: half({
      device: 'ipad-pro-m4',
      device_scale: 0.5,
      device_color: 'silver',
      background_preset: 'arctic',
    }),
  },
  'device-ipad-dark': {
    shot: 'desktop',
    request: half({ device: 'ipad-pro-m4', device_scale: 0.5, background_preset: 'midnight' }),
  },
  'device-browser-macos-light': {
    shot: 'window',
    request: half({ device: 'browser-macos', device_scale: 0.5, background_preset: 'arctic' }),
  },
  'device-browser-macos-dark': {
    shot: 'window',
    request: half({
      device: 'browser-macos',
      device_scale: 0.5,
      device_color: 'dark',
      background_preset: 'midnight',
    }),
  },
  'device-browser-windows-light': {
    shot: 'window',
    request: half({
      device: 'browser-windows',
      device_scale: 0.5,
      device_color: 'light',
      background_preset: 'forest',
    }),
  },
  'device-browser-windows-dark': {
    shot: 'window',
    request: half({
      device: 'browser-windows',
      device_scale: 0.5,
      device_color: 'dark',
      background_preset: 'midnight',
    }),
  },
  'device-browser-windows-tint': {
    shot: 'window',
    request: half({
      device: 'browser-windows',
      device_scale: 0.5,
      device_color: '#C7D2FE',
      background_preset: 'aurora',
    }),
  },
};

/** The page a browser frame shows in its tab and address bar. */
export const DEVICE_PAGE = {
  url: 'https://www.northwind.app/dashboard?team=growth',
  title: 'Northwind — Dashboard',
};
