import type { CanvasName } from '@vitrine/contract';
import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';

/**
 * One scene per `canvas` preset (issue 38), at the preset's own size: what people post there,
 * a laptop or browser for the landscape cards, a phone for the portrait stores and stories.
 */
export const CANVAS_GALLERY: Record<
  CanvasName,
  { shot: 'mobile' | 'desktop' | 'window'; request: StyleRequest & { canvas: CanvasName } }
> = {
  og: {
    shot: 'window',
    request: { canvas: 'og', device: 'browser-macos', background_preset: 'aurora', title: 'Ship faster' },
  },
  twitter: {
    shot: 'desktop',
    request: {
      canvas: 'twitter',
      device: 'macbook-pro-16',
      background_preset: 'midnight',
      title: 'Northwind 2.0 is here',
      subtitle: 'Dashboards your whole team reads',
    },
  },
  linkedin: {
    shot: 'window',
    request: {
      canvas: 'linkedin',
      device: 'browser-windows',
      background_preset: 'arctic',
      title: 'We are hiring',
    },
  },
  'product-hunt': {
    shot: 'desktop',
    request: {
      canvas: 'product-hunt',
      device: 'macbook-air-13',
      background_preset: 'sunset',
      title: 'Dashboards in one click',
    },
  },
  'instagram-square': {
    shot: 'mobile',
    request: {
      canvas: 'instagram-square',
      device: 'pixel-9',
      background_preset: 'dusk',
      title: 'Money, simply',
      title_position: 'top-left',
    },
  },
  'instagram-story': {
    shot: 'mobile',
    request: {
      canvas: 'instagram-story',
      device: 'iphone-16-pro',
      background_preset: 'ember',
      title: 'Your wallet, calmer',
      subtitle: 'New in the app this week',
    },
  },
  'app-store': {
    shot: 'mobile',
    request: {
      canvas: 'app-store',
      device: 'iphone-16-pro',
      background_preset: 'ocean',
      title: 'Track every payment',
      title_position: 'above',
    },
  },
  'google-play': {
    shot: 'mobile',
    request: {
      canvas: 'google-play',
      device: 'galaxy-s25',
      background_preset: 'forest',
      title: 'Track every payment',
    },
  },
  youtube: {
    shot: 'desktop',
    request: {
      canvas: 'youtube',
      device: 'desktop-display',
      background_preset: 'ember',
      title: 'A tour of Northwind in 5 minutes',
      title_position: 'above',
    },
  },
};
