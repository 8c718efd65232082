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
  family: DeviceFamily;
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

/** What kind of thing a frame is: it picks the catalogue's grouping and the outline parts. */
export type DeviceFamily = 'phone' | 'tablet' | 'laptop' | 'desktop' | 'watch' | 'browser' | 'terminal';

/**
 * Which bar the frame art draws: the iOS or iPadOS status bar, Android's status bar (time at
 * the left, icons at the right, around a punch-hole camera), or the macOS menu bar.
 */
export type SystemBarKind = 'ios-status' | 'ipados-status' | 'android-status' | 'macos-menu';

const SAFARI_IOS_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SAFARI_MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const CHROME_MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Chrome on Android sends this reduced user agent whatever the phone ("K" for the model). */
const CHROME_ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const CHROME_ANDROID_TABLET_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE_WINDOWS_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

const even = (n: number) => ({ top: n, right: n, bottom: n, left: n });

/** Browser chrome heights (tab strip + toolbar), in device units. */
export const BROWSER_CHROME = {
  'browser-macos': { tabStrip: 40, toolbar: 40, radius: 10 },
  'browser-windows': { tabStrip: 40, toolbar: 42, radius: 8 },
} as const;

/** The minimal browser window: one bar (no tabs) and the terminal's title bar, in device units. */
export const MINIMAL_CHROME = { bar: 44, radius: 10 } as const;
export const TERMINAL_CHROME = { bar: 32, radius: 10 } as const;

/** A desktop display's stand: neck and foot below the chin, in device units. */
export const DISPLAY_STAND = { neck: 230, neckWidth: 0.2, foot: 14, footWidth: 0.3 } as const;

/** A watch's band above and below the case, in device units. */
export const WATCH_BAND = { length: 80, width: 0.74 } as const;

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
  'iphone-16': {
    device: 'iphone-16',
    label: 'iPhone 16',
    family: 'phone',
    // 393 x 852 pt screen; the status bar (safe-area-inset-top) is 59 pt on the island models.
    viewport: { width: 393, height: 793 },
    systemBar: { kind: 'ios-status', height: 59 },
    dpr: 3,
    userAgent: SAFARI_IOS_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [55, 55, 55, 55],
    bezel: even(15),
    bodyRadius: 70,
    outset: { top: 0, right: 3, bottom: 0, left: 3 },
    croppedVisible: 0.62,
    finishes: ['black', 'white', 'teal', 'pink', 'ultramarine'],
  },
  'pixel-9': {
    device: 'pixel-9',
    label: 'Android phone (Pixel-like)',
    family: 'phone',
    // 1080 x 2424 px at 2.625 = 412 x 923 dp; a 44 dp status bar around the punch-hole camera.
    viewport: { width: 412, height: 879 },
    systemBar: { kind: 'android-status', height: 44 },
    dpr: 2.625,
    userAgent: CHROME_ANDROID_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [48, 48, 48, 48],
    bezel: even(12),
    bodyRadius: 60,
    outset: { top: 0, right: 3, bottom: 0, left: 0 },
    croppedVisible: 0.62,
    finishes: ['obsidian', 'porcelain', 'wintergreen', 'peony'],
  },
  'galaxy-s25': {
    device: 'galaxy-s25',
    label: 'Android phone (Galaxy-like)',
    family: 'phone',
    // 1080 x 2340 px at 3 = 360 x 780 dp; a 36 dp status bar around the punch-hole camera.
    viewport: { width: 360, height: 744 },
    systemBar: { kind: 'android-status', height: 36 },
    dpr: 3,
    userAgent: CHROME_ANDROID_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [34, 34, 34, 34],
    bezel: even(9),
    bodyRadius: 43,
    outset: { top: 0, right: 3, bottom: 0, left: 0 },
    croppedVisible: 0.62,
    finishes: ['navy', 'icy-blue', 'silver-shadow', 'mint'],
  },
  'ipad-air-11': {
    device: 'ipad-air-11',
    label: 'iPad Air 11"',
    family: 'tablet',
    // 820 x 1180 pt screen; iPadOS's status bar is 24 pt.
    viewport: { width: 820, height: 1156 },
    systemBar: { kind: 'ipados-status', height: 24 },
    dpr: 2,
    userAgent: SAFARI_IPAD_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [18, 18, 18, 18],
    bezel: even(44),
    bodyRadius: 58,
    outset: even(3),
    croppedVisible: 0.64,
    finishes: ['space-gray', 'starlight', 'purple', 'blue'],
  },
  'android-tablet': {
    device: 'android-tablet',
    label: 'Android tablet',
    family: 'tablet',
    // 1600 x 2560 px at 2 = 800 x 1280 dp in portrait; a 28 dp status bar.
    viewport: { width: 800, height: 1252 },
    systemBar: { kind: 'android-status', height: 28 },
    dpr: 2,
    userAgent: CHROME_ANDROID_TABLET_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [16, 16, 16, 16],
    bezel: even(36),
    bodyRadius: 44,
    outset: even(3),
    croppedVisible: 0.64,
    finishes: ['graphite', 'beige'],
  },
  'macbook-air-13': {
    device: 'macbook-air-13',
    label: 'MacBook Air 13"',
    family: 'laptop',
    // 1470 x 956 pt default scaled display; the menu bar is 37 pt around the notch.
    viewport: { width: 1470, height: 919 },
    systemBar: { kind: 'macos-menu', height: 37 },
    dpr: 2,
    userAgent: SAFARI_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: true,
    screenRadii: [12, 12, 0, 0],
    bezel: { top: 24, right: 22, bottom: 46, left: 22 },
    bodyRadius: 26,
    outset: {
      top: 0,
      right: LAPTOP_BASE.overhang,
      bottom: LAPTOP_BASE.hinge + LAPTOP_BASE.height,
      left: LAPTOP_BASE.overhang,
    },
    croppedVisible: 0.66,
    finishes: ['midnight', 'starlight', 'silver', 'sky-blue'],
  },
  'laptop-windows': {
    device: 'laptop-windows',
    label: 'Windows laptop',
    family: 'laptop',
    // A 1920 x 1080 panel at Windows' 125 % scaling: 1536 x 864 CSS px, no system bar on top.
    viewport: { width: 1536, height: 864 },
    systemBar: null,
    dpr: 1.25,
    userAgent: EDGE_WINDOWS_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: true,
    screenRadii: [0, 0, 0, 0],
    bezel: { top: 30, right: 20, bottom: 40, left: 20 },
    bodyRadius: 12,
    outset: {
      top: 0,
      right: LAPTOP_BASE.overhang,
      bottom: LAPTOP_BASE.hinge + LAPTOP_BASE.height,
      left: LAPTOP_BASE.overhang,
    },
    croppedVisible: 0.66,
    finishes: ['black', 'silver'],
  },
  'desktop-display': {
    device: 'desktop-display',
    label: 'Desktop display',
    family: 'desktop',
    // A 24" 4.5K all-in-one at its default 2240 x 1260 pt; a 25 pt menu bar (no notch).
    viewport: { width: 2240, height: 1235 },
    systemBar: { kind: 'macos-menu', height: 25 },
    dpr: 2,
    userAgent: SAFARI_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: true,
    screenRadii: [0, 0, 0, 0],
    bezel: { top: 48, right: 48, bottom: 270, left: 48 },
    bodyRadius: 30,
    outset: { top: 0, right: 0, bottom: DISPLAY_STAND.neck + DISPLAY_STAND.foot, left: 0 },
    croppedVisible: 0.66,
    finishes: ['silver', 'blue', 'green', 'pink'],
  },
  watch: {
    device: 'watch',
    label: 'Watch',
    family: 'watch',
    // A 45 mm class watch: 198 x 242 pt at 2x, no browser bar.
    viewport: { width: 198, height: 242 },
    systemBar: null,
    dpr: 2,
    userAgent: SAFARI_IOS_UA,
    isMobile: true,
    hasTouch: true,
    fixedScreen: true,
    screenRadii: [40, 40, 40, 40],
    bezel: even(16),
    bodyRadius: 56,
    outset: { top: WATCH_BAND.length, right: 9, bottom: WATCH_BAND.length, left: 0 },
    croppedVisible: 0.7,
    finishes: ['midnight', 'starlight', 'silver'],
  },
  'browser-minimal': {
    device: 'browser-minimal',
    label: 'Browser window (minimal)',
    family: 'browser',
    viewport: { width: 1440, height: 900 },
    systemBar: null,
    dpr: 1,
    userAgent: CHROME_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: false,
    screenRadii: [0, 0, MINIMAL_CHROME.radius, MINIMAL_CHROME.radius],
    bezel: { top: MINIMAL_CHROME.bar, right: 0, bottom: 0, left: 0 },
    bodyRadius: MINIMAL_CHROME.radius,
    outset: even(0),
    croppedVisible: 0.7,
    finishes: ['light', 'dark'],
  },
  terminal: {
    device: 'terminal',
    label: 'Terminal window',
    family: 'terminal',
    viewport: { width: 1200, height: 760 },
    systemBar: null,
    dpr: 1,
    userAgent: CHROME_MAC_UA,
    isMobile: false,
    hasTouch: false,
    fixedScreen: false,
    screenRadii: [0, 0, TERMINAL_CHROME.radius, TERMINAL_CHROME.radius],
    bezel: { top: TERMINAL_CHROME.bar, right: 0, bottom: 0, left: 0 },
    bodyRadius: TERMINAL_CHROME.radius,
    outset: even(0),
    croppedVisible: 0.7,
    finishes: ['dark', 'light'],
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
