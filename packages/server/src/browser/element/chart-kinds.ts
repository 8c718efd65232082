import type { Page } from 'playwright-core';
import { z } from 'zod';

/**
 * Runs IN THE PAGE'S OWN WORLD (chart libraries keep their instances in page globals, which the
 * resolver's isolated world cannot see). For each `<canvas>` in document order, what the chart
 * drawn on it is, as its library reports it: Chart.js (`Chart.getChart`, or `Chart.instances` in
 * version 2) and, for each ECharts container (`[_echarts_instance_]`), its series types. A line
 * chart with filled datasets is also an `area` chart; a doughnut is also a `donut` and a `pie`.
 * With each, the words the chart draws (its title, its datasets' or series' names).
 * Never throws: a page that breaks it just gets no kinds.
 */
export function chartKindsInPage(): ChartsInPage {
  const out: ChartsInPage = { canvas: [], echarts: [], canvasWords: [], echartsWords: [] };
  // The words a chart draws (its title, its datasets' and series' names): "the revenue bars" is
  // the chart whose dataset is "Revenue". Strings only, a few, short.
  const wordsOf = (...parts: unknown[]): string =>
    parts
      .flat(2)
      .filter((p): p is string => typeof p === 'string')
      .slice(0, 12)
      .join(' ')
      .slice(0, 200);
  const kindsOf = (type: string, filled: boolean): string[] => {
    const t = type.toLowerCase();
    if (t === 'line') return filled ? ['area', 'line'] : ['line'];
    if (t === 'doughnut' || t === 'donut') return ['donut', 'doughnut', 'pie'];
    if (t === 'pie') return filled ? ['pie', 'donut'] : ['pie'];
    if (t === 'horizontalbar' || t === 'column') return ['bar'];
    if (t === 'polararea') return ['polar', 'radar'];
    if (t === 'bubble') return ['bubble', 'scatter'];
    return [t];
  };
  try {
    const w = window as unknown as Record<string, unknown>;
    const Chart = w.Chart as
      | {
          getChart?: (c: HTMLCanvasElement) => unknown;
          instances?: Record<string, unknown> | unknown[];
          version?: string;
          defaults?: { global?: unknown };
        }
      | undefined;
    const legacy = Chart?.instances ? Object.values(Chart.instances) : [];
    // Chart.js 2 keeps its defaults under `defaults.global` (and may not say its version).
    const v2 =
      (typeof Chart?.version === 'string' && Chart.version.startsWith('2')) ||
      (Chart?.defaults?.global !== undefined && typeof Chart?.getChart !== 'function');
    for (const canvas of document.querySelectorAll('canvas')) {
      let kinds: string[] = [];
      let words = '';
      try {
        const chart = (Chart?.getChart?.(canvas) ??
          legacy.find((i) => (i as { canvas?: unknown })?.canvas === canvas)) as
          | {
              config?: {
                type?: unknown;
                data?: { datasets?: { fill?: unknown; cutout?: unknown; label?: unknown }[] };
                options?: { title?: { text?: unknown }; plugins?: { title?: { text?: unknown } } };
              };
            }
          | undefined;
        words = wordsOf(
          chart?.config?.options?.title?.text,
          chart?.config?.options?.plugins?.title?.text,
          (chart?.config?.data?.datasets ?? []).map((d) => d.label),
        );
        const type = chart?.config?.type;
        if (typeof type === 'string') {
          const datasets = chart?.config?.data?.datasets ?? [];
          // Chart.js 2 fills line datasets unless told not to; later versions only when told.
          const filled = datasets.some((d) => (d.fill === undefined ? v2 : d.fill !== false));
          kinds = kindsOf(type, filled && type === 'line');
        }
      } catch {
        kinds = [];
      }
      out.canvas.push(kinds.slice(0, 6));
      out.canvasWords.push(words);
    }
    const echarts = w.echarts as { getInstanceByDom?: (el: Element) => unknown } | undefined;
    for (const box of document.querySelectorAll('[_echarts_instance_]')) {
      let kinds: string[] = [];
      let words = '';
      try {
        const chart = echarts?.getInstanceByDom?.(box) as
          | {
              getOption?: () => {
                title?: { text?: unknown }[];
                series?: { type?: unknown; areaStyle?: unknown; radius?: unknown; name?: unknown }[];
              };
            }
          | undefined;
        const option = chart?.getOption?.();
        words = wordsOf(
          (option?.title ?? []).map((t) => t?.text),
          (option?.series ?? []).map((x) => x?.name),
        );
        for (const series of option?.series ?? []) {
          if (typeof series.type !== 'string') continue;
          kinds.push(...kindsOf(series.type, series.areaStyle !== undefined || Array.isArray(series.radius)));
        }
      } catch {
        kinds = [];
      }
      out.echarts.push([...new Set(kinds)].slice(0, 6));
      out.echartsWords.push(words);
    }
  } catch {
    return { canvas: [], echarts: [], canvasWords: [], echartsWords: [] };
  }
  return out;
}

/** What the page's charts draw, in document order: canvases, then ECharts boxes. */
export interface ChartsInPage {
  canvas: string[][];
  echarts: string[][];
  canvasWords: string[];
  echartsWords: string[];
}
const NO_CHARTS: ChartsInPage = { canvas: [], echarts: [], canvasWords: [], echartsWords: [] };

const kindsSchema = z.array(z.array(z.string().max(40)).max(6)).max(2000);
const wordsSchema = z.array(z.string().max(200)).max(2000);
const resultSchema = z.object({
  canvas: kindsSchema,
  echarts: kindsSchema,
  canvasWords: wordsSchema,
  echartsWords: wordsSchema,
});

/**
 * The chart kinds of the page's canvases and ECharts boxes, or empty lists when the page has no
 * chart library or answers nonsense (it runs in the page's world: its answer is checked as input).
 */
export async function chartKinds(page: Page): Promise<ChartsInPage> {
  try {
    const result = await page.evaluate(chartKindsInPage);
    return resultSchema.parse(result);
  } catch {
    return NO_CHARTS;
  }
}
