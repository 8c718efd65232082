/**
 * The compose stage's one door. The stage itself: `createComposeStage` gives one function, a
 * resolved scene (style + screenshot) in, pixels out, drawn by a renderer of the requested mode
 * (`rasterRenderer`, `browserRenderer`). It raises no HTTP errors (a look that does not fit is a
 * ComposeError) and knows no request: the capture service's resolver (captures/resolve/) turns a
 * request into the ResolvedStyle it draws.
 *
 * Besides the stage, the tables the resolver expands presets from and the catalogues other rooms
 * list (frames, fonts, gradients) are exported here; nothing outside compose/ imports a file
 * inside it.
 */
export type { GradientPresetName } from './backgrounds/gradient-presets.ts';
export { GRADIENT_PRESET_NAMES, GRADIENT_PRESETS, gradientCss } from './backgrounds/gradient-presets.ts';
export { BORDER_PRESET_VALUES } from './border-presets.ts';
export {
  CAMERA_PRESET_VALUES,
  type CameraValues,
  PERSPECTIVE_PRESET_VALUES,
} from './camera/camera-presets.ts';
export { ComposeError } from './compose-error.ts';
export {
  type BackgroundImageLoader,
  browserRenderer,
  type ComposedImage,
  type ComposeInput,
  type ComposeSceneInput,
  type ComposeScreenshot,
  type ComposeStage,
  createComposeStage,
  rasterRenderer,
  type SceneRenderer,
  type ShotFrame,
} from './compose-stage.ts';
export { parseCssColor, relativeLuminance } from './css/css-color.ts';
export { GradientSyntaxError, type ParsedGradient, parseCssGradient } from './css/css-gradient.ts';
export type { DepthBlurSettings } from './effects/depth-blur-mask.ts';
export { FINISH_COLORS, findDeviceFinish } from './frames/device-finish.ts';
export { createDeviceThumbnails, THUMBNAIL_BOX } from './frames/device-thumbnails.ts';
export { deviceCaptureDefaults, FRAME_CATALOGUE } from './frames/frame-catalogue.ts';
export { type AnimatedVideo, createMotionStage, type MotionInput, type MotionShot } from './motion-stage.ts';
export { loadBrowserFonts } from './renderers/browser/fonts.ts';
export type { PageRunner } from './renderers/browser/render-in-browser.ts';
export { createBrowserTextDrawer } from './renderers/browser/text-in-browser.ts';
export { createComposeCache } from './renderers/compose-cache.ts';
export type { Scene } from './scene-types.ts';
export { SHADOW_PRESET_VALUES } from './shadow-presets.ts';
export type { ResolvedStyle } from './style-types.ts';
export { loadFontCatalogue } from './text/font-catalogue.ts';
export {
  FONT_FAMILIES,
  FONT_NAMES,
  type FontFamilySpec,
  GENERIC_FONT_FAMILIES,
  registerBrandFace,
  resolveFontFamily,
} from './text/font-families.ts';
