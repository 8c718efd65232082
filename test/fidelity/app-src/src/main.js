// The app shell renders at once; the charts module (with Chart.js in it) is a separate chunk
// loaded with a dynamic import() after load, as bundlers split heavy dependencies. The suite
// serves that chunk late (/app/assets/charts.js after 800 ms).
import './style.css';

const CARDS = [
  { id: 'revenue', title: 'Revenue' },
  { id: 'users', title: 'Active users' },
  { id: 'plans', title: 'Plans' },
  { id: 'latency', title: 'Latency (ms)' },
];

document.querySelector('#app').innerHTML = `
  <header class="bar">Metrics</header>
  <main class="grid">
    ${CARDS.map((card) => `<section class="card"><h2>${card.title}</h2><div class="plot" id="${card.id}"></div></section>`).join('')}
  </main>`;

addEventListener('load', async () => {
  const { drawCharts } = await import('./charts.js');
  drawCharts(document);
});
