/**
 * P11 (issue 37): a 6 s, 30 fps, 1920x1080 scroll video of the long bench page inside the
 * macbook-pro-16 frame, end to end through POST /v1/capture (`async: false`): wall time, the
 * service's CPU (its own and ffmpeg's), its peak memory, and the frames per second of the
 * compose stage alone; then a 6 s, 800 px GIF of the same.
 */
import fs from 'node:fs';
import { type Stats, stats } from './measure.ts';
import { startVitrine } from './service.ts';

export interface MotionRun {
  wallMs: Stats;
  /** Frames per second of the motion stage's drawing alone (frames / time drawing them). */
  composeFps: Stats;
  /** CPU seconds of the service process and its children (ffmpeg) per video. */
  cpuSeconds: Stats;
  /** Peak resident memory of the service process plus ffmpeg during a video, MB. */
  peakMb: number;
  /** The service process's resident memory before the first video (fonts, pool, caches), MB. */
  baselineMb: number;
  bytes: number;
  frames: number;
}

export interface MotionBenchResult {
  mp4: MotionRun;
  gif: MotionRun;
}

const TICKS_PER_SECOND = 100;

/** CPU seconds of this process and of its children that have exited (ffmpeg, once done). */
function processCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command: state is field 3, so utime..cstime (14..17) are at 11..14 here.
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return ticks / TICKS_PER_SECOND;
}

function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Direct children of this process named ffmpeg. */
function ffmpegChildren(): number[] {
  const pids: number[] = [];
  for (const task of fs.readdirSync('/proc/self/task')) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      try {
        if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg') pids.push(pid);
      } catch {}
    }
  }
  return pids;
}

/** Samples this process's RSS plus its ffmpeg children's every 20 ms until stopped; the peak in MB. */
function samplePeak(): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    const total = rssKb(process.pid) + ffmpegChildren().reduce((sum, pid) => sum + rssKb(pid), 0);
    peak = Math.max(peak, total);
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.round(peak / 1024);
  };
}

async function runs(
  vitrine: Awaited<ReturnType<typeof startVitrine>>,
  body: Record<string, unknown>,
  rounds: number,
): Promise<MotionRun> {
  const wall: number[] = [];
  const fps: number[] = [];
  const cpu: number[] = [];
  let peakMb = 0;
  const baselineMb = Math.round(rssKb(process.pid) / 1024);
  let bytes = 0;
  let frames = 0;
  for (let i = 0; i < rounds; i++) {
    const stop = samplePeak();
    const cpuBefore = processCpuSeconds();
    const start = performance.now();
    const { body: result, server } = await vitrine.postTraced('/v1/capture', body);
    wall.push(performance.now() - start);
    cpu.push(processCpuSeconds() - cpuBefore);
    peakMb = Math.max(peakMb, stop());
    const video = result.video as { frames: number };
    frames = video.frames;
    const drawing = server.phasesMs?.animate_compose;
    if (drawing) fps.push((frames / drawing) * 1000);
    bytes = (await (await fetch(String(result.url))).arrayBuffer()).byteLength;
  }
  return {
    wallMs: stats(wall),
    composeFps: stats(fps),
    cpuSeconds: stats(cpu),
    peakMb,
    baselineMb,
    bytes,
    frames,
  };
}

export async function motionSection(longPage: string, rounds: number): Promise<MotionBenchResult> {
  const vitrine = await startVitrine();
  try {
    const base = { url: longPage, device: 'macbook-pro-16', async: false, cache_ttl: 0 };
    // One warm-up: fonts, the device raster and the pool's first page.
    await vitrine.post('/v1/capture', { ...base, motion: { type: 'scroll', duration: 1, fps: 5 } });
    const mp4 = await runs(
      vitrine,
      { ...base, motion: { type: 'scroll', duration: 6, fps: 30 }, output: { width: 1920, height: 1080 } },
      rounds,
    );
    console.log(
      `  mp4 1920x1080 6 s 30 fps: p50 ${Math.round(mp4.wallMs.p50)} ms, compose ${Math.round(mp4.composeFps.p50)} fps, CPU ${mp4.cpuSeconds.p50.toFixed(1)} s, peak ${mp4.peakMb} MB (${mp4.baselineMb} MB before), ${Math.round(mp4.bytes / 1024)} KB`,
    );
    const gif = await runs(
      vitrine,
      { ...base, motion: { type: 'scroll', duration: 6 }, output: { format: 'gif', width: 800 } },
      rounds,
    );
    console.log(
      `  gif 800 px 6 s 15 fps: p50 ${Math.round(gif.wallMs.p50)} ms, compose ${Math.round(gif.composeFps.p50)} fps, CPU ${gif.cpuSeconds.p50.toFixed(1)} s, peak ${gif.peakMb} MB (${gif.baselineMb} MB before), ${Math.round(gif.bytes / 1024)} KB`,
    );
    return { mp4, gif };
  } finally {
    await vitrine.close();
  }
}
