import type { Device } from '@vitrine/contract';
import type { CornerRadii } from '../scene-types.ts';

export type { CornerRadii };

/**
 * One device frame as data. Lengths are in "device units": CSS px of the device's own screen
 * (the screen of an iPhone 16 Pro is 402 units wide), so a frame at `device_scale` 1 shows the
 * page at the size it was laid out at.
 */
export interface DeviceFrameSpec {
  device: Device;
  label: string;
  family: 'phone' | 'laptop' | 'tablet' | 'browser';
  /**
   * Capture settings applied when the request names the device and no viewport: the screen
   * below the system bar, so a default capture fills the page area exactly.
   */
  viewport: { width: number; height: number };
  /**
   * The operating system's bar across the top of the screen (its safe-area top inset), in
   * device units: the page starts below it so a notch or island never covers the page. The
   * fixed screen is `viewport` plus this height. Null for browser windows.
   */
  systemBar: { kind: SystemBarKind; height: number } | null;
  dpr: number;
  userAgent: string;
  isMobile: boolean;
  hasTouch: boolean;
  /**
   * Whether the screen has the device's fixed size (phones, tablets, laptops: the capture is
   * cover-cropped into it) or follows the capture (browser windows grow with the page).
   */
  fixedScreen: boolean;
  /** Screen corner radii. */
  screenRadii: CornerRadii;
  /** Distance from the screen edge to the device's outer edge: body, bezel, chrome or lid. */
  bezel: { top: number; right: number; bottom: number; left: number };
  /** Outer corner radius of the body (the lid for a laptop, the window for a browser). */
  bodyRadius: number;
  /** Extra room around the body for protruding parts (buttons, a laptop's base), per side. */
  outset: { top: number; right: number; bottom: number; left: number };
  /** Fraction of the device height kept on the canvas in the cropped layouts. */
  croppedVisible: number;
  /** The named finishes (`device_color`), the first is the default. */
  finishes: readonly string[];
}

/** Which bar the frame art draws: the iOS or iPadOS status bar, or the macOS menu bar. */
export type SystemBarKind = 'ios-status' | 'ipados-status' | 'macos-menu';

const SAFARI_IOS_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SAFARI_MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const CHROME_MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE_WINDOWS_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

const even = (n: number) => ({ top: n, right: n, bottom: n, left: n });

/** Browser chrome heights (tab strip + toolbar), in device units. */
export const BROWSER_CHROME = {
  'browser-macos': { tabStrip: 40, toolbar: 40, radius: 10 },
  'browser-windows': { tabStrip: 40, toolbar: 42, radius: 8 },
} as const;

/** The iPhone's Dynamic Island: size and gap below the screen's top edge, in device units. */
export const DYNAMIC_ISLAND = { width: 126, height: 37, top: 11 } as const;

/** The MacBook's camera notch at the top centre of the display, in device units. */
export const LAPTOP_NOTCH = { width: 196, height: 32 } as const;

/** Laptop base proportions, in device units. */
export const LAPTOP_BASE = { hinge: 7, height: 22, overhang: 110 } as const;

/** The frame catalogue: geometry, capture defaults and finishes of every `device`. */
export const FRAME_CATALOGUE: Readonly<Record<Device, DeviceFrameSpec>> = {
  'iphone-16-pro': {
    device: 'iphone-16-pro',
    label: 'iPhone 16 Pro',
    family: 'phone',
    // 402 x 874 pt screen; iOS's status bar (safe-area-inset-top) is 62 pt on this model.
    viewport: { width: 402, height: 812 },
    systemBar: { kind: 'ios-status', height: 62 },
    dpr: 3,
    userAgent: SAFARI_IOS_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [62, 62, 62, 62],
    bezel: even(15),
    bodyRadius: 77,
    outset: { top: 0, right: 3, bottom: 0, left: 3 },
    croppedVisible: 0.62,
    finishes: ['black-titanium', 'white-titanium', 'natural-titanium', 'desert-titanium'],
  },
  'macbook-pro-16': {
    device: 'macbook-pro-16',
    label: 'MacBook Pro 16"',
    family: 'laptop',
    // 1728 x 1117 pt default scaled display; the menu bar is 37 pt, just taller than the 32 pt notch.
    viewport: { width: 1728, height: 1080 },
    systemBar: { kind: 'macos-menu', height: 37 },
    dpr: 2,
    userAgent: SAFARI_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: true,
    screenRadii: [14, 14, 0, 0],
    bezel: { top: 26, right: 24, bottom: 58, left: 24 },
    bodyRadius: 30,
    outset: {
      top: 0,
      right: LAPTOP_BASE.overhang,
      bottom: LAPTOP_BASE.hinge + LAPTOP_BASE.height,
      left: LAPTOP_BASE.overhang,
    },
    croppedVisible: 0.66,
    finishes: ['space-black', 'silver'],
  },
  'ipad-pro-m4': {
    device: 'ipad-pro-m4',
    label: 'iPad Pro 13" (M4)',
    family: 'tablet',
    // 1032 x 1376 pt screen; iPadOS's status bar is 24 pt (no notch on this model).
    viewport: { width: 1032, height: 1352 },
    systemBar: { kind: 'ipados-status', height: 24 },
    dpr: 2,
    userAgent: SAFARI_IPAD_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [30, 30, 30, 30],
    bezel: even(40),
    bodyRadius: 70,
    outset: even(3),
    croppedVisible: 0.64,
    finishes: ['space-black', 'silver'],
  },
  'browser-macos': {
    device: 'browser-macos',
    label: 'Browser window (macOS)',
    family: 'browser',
    viewport: { width: 1440, height: 900 },
    systemBar: null,
    dpr: 1,
    userAgent: CHROME_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: false,
    screenRadii: [0, 0, BROWSER_CHROME['browser-macos'].radius, BROWSER_CHROME['browser-macos'].radius],
    bezel: {
      top: BROWSER_CHROME['browser-macos'].tabStrip + BROWSER_CHROME['browser-macos'].toolbar,
      right: 0,
      bottom: 0,
      left: 0,
    },
    bodyRadius: BROWSER_CHROME['browser-macos'].radius,
    outset: even(0),
    croppedVisible: 0.7,
    finishes: ['light', 'dark'],
  },
  'browser-windows': {
    device: 'browser-windows',
    label: 'Browser window (Windows)',
    family: 'browser',
    viewport: { width: 1440, height: 900 },
    systemBar: null,
    dpr: 1,
    userAgent: EDGE_WINDOWS_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: false,
    screenRadii: [0, 0, BROWSER_CHROME['browser-windows'].radius, BROWSER_CHROME['browser-windows'].radius],
    bezel: {
      top: BROWSER_CHROME['browser-windows'].tabStrip + BROWSER_CHROME['browser-windows'].toolbar,
      right: 0,
      bottom: 0,
      left: 0,
    },
    bodyRadius: BROWSER_CHROME['browser-windows'].radius,
    outset: even(0),
    croppedVisible: 0.7,
    finishes: ['light', 'dark'],
  },
};

/** What the capture stage applies for a device when the request has no viewport (docs/api-decisions.md section 4). */
export interface DeviceCaptureDefaults {
  viewport: { width: number; height: number };
  dpr: number;
  userAgent: string;
  isMobile: boolean;
  hasTouch: boolean;
}

/**
 * The device's own viewport, DPR, user agent and mobile/touch emulation, so a framed capture
 * lays the page out as that device would ("with a device and no viewport ... apply").
 */
export function deviceCaptureDefaults(device: Device): DeviceCaptureDefaults {
  const f = FRAME_CATALOGUE[device];
  return {
    viewport: { ...f.viewport },
    dpr: f.dpr,
    userAgent: f.userAgent,
    isMobile: f.isMobile,
    hasTouch: f.hasTouch,
  };
}
