/**
 * The resolved style (every default and preset applied): what the compose stage draws from, and
 * what `resolved_params` shows. The capture service's resolver (captures/resolve/) makes it; the
 * compositor never sees a request.
 */
import type {
  AspectRatio,
  BackgroundPresetName,
  BorderPreset,
  CameraPresetName,
  ComposeMode,
  Device,
  DeviceLayout,
  Perspective,
  ShadowPreset,
  TextAlign,
  TextVerticalAlign,
  TitlePosition,
} from '@vitrine/contract';
import type { OutputSettings } from '../image/output-settings.ts';
import type { CameraValues } from './camera/camera-presets.ts';
import type { DepthBlurSettings } from './effects/depth-blur-mask.ts';

/**
 * Every effective styling value after defaults and presets, flat and JSON-serialisable, named
 * like the request fields: this is what `resolved_params` shows and what `buildScene` reads.
 * `background_style` may be `image` (a hosted or custom image background).
 */
export interface ResolvedStyle extends CameraValues, DepthBlurSettings {
  background_style: 'gradient' | 'solid' | 'none' | 'transparent' | 'image';
  background_preset: BackgroundPresetName | null;
  background_gradient: string | null;
  background_color: string | null;
  background: string | null;
  background_image_url: string | null;
  /** Whether light or dark text reads on the background; drives default text/border colours. */
  background_theme: 'light' | 'dark';
  padding: number;
  corner_radius: number;
  inset: number;
  inset_balance: boolean;
  auto_balance: boolean;
  shadow: ShadowPreset;
  shadow_color: string;
  shadow_blur: number;
  shadow_offset_x: number;
  shadow_offset_y: number;
  shadow_spread: number;
  shadow_opacity: number;
  border: BorderPreset;
  border_color: string | null;
  border_width: number;
  aspect_ratio: AspectRatio;
  frame_ratio: AspectRatio;
  device: Device | null;
  device_color: string | null;
  device_scale: number;
  layout: DeviceLayout;
  perspective: Perspective;
  perspective_intensity: number;
  camera_preset: CameraPresetName | null;
  title: string | null;
  title_font: string;
  title_size: number;
  title_color: string;
  title_position: TitlePosition;
  subtitle: string | null;
  subtitle_font: string;
  subtitle_size: number;
  subtitle_color: string;
  badge: string | null;
  watermark: string | null;
  text_enabled: boolean;
  text_content: string | null;
  text_x: number;
  text_y: number;
  text_size: number;
  text_color: string;
  text_gradient: string | null;
  text_shadow: string | null;
  text_font: string;
  text_weight: number;
  text_align: TextAlign;
  text_max_width: number | null;
  text_line_height: number;
  text_fit_min: number;
  text_box_h: number | null;
  text_autofit: boolean;
  text_vertical_align: TextVerticalAlign;
  /** The capture's output settings (the same value as the plan's `output`). */
  output: OutputSettings;
  compose_mode: ComposeMode;
}
