import type { Device } from '@vitrine/contract';
import { parseCssColor, type Rgba, relativeLuminance } from '../css/css-color.ts';
import { FRAME_CATALOGUE } from './frame-catalogue.ts';

/** Base colour of every named finish: the anodised or titanium body tone seen from the front. */
export const FINISH_COLORS: Readonly<Record<string, string>> = {
  'black-titanium': '#3C3C3E',
  'white-titanium': '#E4E2DC',
  'natural-titanium': '#BAB5AA',
  'desert-titanium': '#C9AD93',
  'space-black': '#2E2E30',
  silver: '#D5D7DA',
  light: '#DFE3E8',
  dark: '#1F2023',
  black: '#26272A',
  white: '#E9E8E4',
  teal: '#8DB8B4',
  pink: '#E8B8C8',
  ultramarine: '#6F7FD9',
  obsidian: '#2B2C2F',
  porcelain: '#ECE8E0',
  wintergreen: '#C5D9C7',
  peony: '#EFC3CF',
  navy: '#2E3A52',
  'icy-blue': '#C5D6E6',
  'silver-shadow': '#B7BABF',
  mint: '#CDE3D4',
  'space-gray': '#6E7075',
  starlight: '#E2DCCF',
  purple: '#C7BFDD',
  blue: '#9DB4D0',
  graphite: '#3A3B3E',
  beige: '#DCCFBD',
  midnight: '#2D3440',
  'sky-blue': '#C8D5E0',
  green: '#B5CDB0',
};

/** A resolved `device_color`: the canonical name (or the CSS text given) and its colour. */
export interface DeviceFinish {
  name: string;
  color: Rgba;
  /** Whether it is one of the device's named finishes rather than a tint. */
  named: boolean;
  /** Light finishes get dark details (text, icons) and vice versa. */
  tone: 'light' | 'dark';
}

/**
 * `device_color` for a device: one of its named finishes (case-insensitive), or any CSS colour
 * used as a tint of the body or window chrome; undefined for anything else (the resolver refuses
 * it with a 400 before a scene is built). No value gives the device's first finish.
 */
export function findDeviceFinish(device: Device, value: string | null | undefined): DeviceFinish | undefined {
  const { finishes } = FRAME_CATALOGUE[device];
  const key = (value ?? finishes[0] ?? '').trim().toLowerCase();
  const namedColor = finishes.includes(key) ? FINISH_COLORS[key] : undefined;
  const color = parseCssColor(namedColor ?? (value ?? '').trim());
  if (!color) return undefined;
  const opaque = { ...color, a: 1 };
  return {
    name: namedColor ? key : (value ?? '').trim(),
    color: opaque,
    named: namedColor !== undefined,
    tone: relativeLuminance(opaque) > 0.3 ? 'light' : 'dark',
  };
}

/** The finish of a resolved style (the resolver checked it, so it always exists). */
export function resolveDeviceFinish(device: Device, value: string | null | undefined): DeviceFinish {
  const finish = findDeviceFinish(device, value);
  if (!finish) throw new Error(`Unknown finish ${value} for ${device}: the style was not resolved`);
  return finish;
}

/** `a` mixed towards `b` by `t` (0..1), opaque. */
export function mixRgba(a: Rgba, b: Rgba, t: number): Rgba {
  const m = (x: number, y: number) => Math.round(x + (y - x) * t);
  return { r: m(a.r, b.r), g: m(a.g, b.g), b: m(a.b, b.b), a: 1 };
}

/** `#rrggbb` for SVG attributes. */
export function hex(c: Rgba): string {
  const h = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}`;
}

/** Lighter (t > 0, towards white) or darker (t < 0, towards black) shade as `#rrggbb`. */
export function shade(c: Rgba, t: number): string {
  return hex(
    t >= 0 ? mixRgba(c, { r: 255, g: 255, b: 255, a: 1 }, t) : mixRgba(c, { r: 0, g: 0, b: 0, a: 1 }, -t),
  );
}
