/**
 * The styling types the compose stage shares: the styling part of a capture request as it
 * arrives, and the resolved style (every default and preset applied) that `resolved_params`
 * shows and the scene model reads.
 */
import type {
  AspectRatio,
  BackgroundPresetName,
  BorderPreset,
  ComposeFields,
  ComposeMode,
  OutputFormat,
  OutputOptions,
  ShadowPreset,
  TextAlign,
  TextVerticalAlign,
  TitlePosition,
} from '@vitrine/contract';
import type { CameraValues } from './camera/camera-presets.ts';
import type { DepthBlurSettings } from './effects/depth-blur-mask.ts';

/** The styling part of a capture request: the compose fields plus `output`. */
export type StyleRequest = ComposeFields & { output?: OutputOptions | undefined };

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
  device: ComposeFields['device'] | null;
  device_color: string | null;
  device_scale: number;
  layout: NonNullable<ComposeFields['layout']>;
  perspective: NonNullable<ComposeFields['perspective']>;
  perspective_intensity: number;
  camera_preset: ComposeFields['camera_preset'] | null;
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
  output: {
    format: OutputFormat;
    width: number | null;
    height: number | null;
    quality: number | null;
    dpr: number;
  };
  compose_mode: ComposeMode;
}
