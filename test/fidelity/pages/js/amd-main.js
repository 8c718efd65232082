// An AMD application module: ECharts comes through require.js (its UMD build calls define()).
requirejs.config({ baseUrl: '/', paths: { echarts: 'slow/echarts.min' } });

// A seeded generator: the same candles on every load.
function mulberry32(seed) {
  return function () {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

require(['echarts'], function (echarts) {
  const random = mulberry32(32);
  const days = [];
  const candles = [];
  const volumes = [];
  let close = 100;
  for (let i = 0; i < 40; i += 1) {
    const open = close;
    close = Math.round((open + (random() - 0.48) * 8) * 100) / 100;
    const low = Math.min(open, close) - random() * 3;
    const high = Math.max(open, close) + random() * 3;
    days.push(`D${i + 1}`);
    candles.push([open, close, Math.round(low * 100) / 100, Math.round(high * 100) / 100]);
    volumes.push(Math.round(1000 + random() * 4000));
  }
  for (const [id, option] of [
    ['candles', { animationDuration: 1500, xAxis: { data: days }, yAxis: { scale: true },
      series: [{ type: 'candlestick', data: candles }] }],
    ['volume', { animationDuration: 1500, xAxis: { data: days }, yAxis: {},
      series: [{ type: 'bar', data: volumes, itemStyle: { color: '#64748b' } }] }],
  ]) {
    const element = document.getElementById(id);
    element.classList.add('ready');
    echarts.init(element).setOption(option);
  }
});
