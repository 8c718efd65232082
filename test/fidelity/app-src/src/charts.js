import { Chart, registerables } from 'chart.js';

Chart.register(...registerables);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct'];

export function drawCharts(document) {
  const draw = (id, config) => {
    const holder = document.getElementById(id);
    const canvas = document.createElement('canvas');
    holder.append(canvas);
    holder.classList.add('ready');
    new Chart(canvas, {
      ...config,
      options: { maintainAspectRatio: false, animation: { duration: 1800 }, ...config.options },
    });
  };
  draw('revenue', {
    type: 'line',
    data: {
      labels: MONTHS,
      datasets: [
        {
          label: 'Revenue',
          data: [30, 34, 29, 41, 45, 52, 49, 58, 63, 70],
          borderColor: '#0f766e',
          backgroundColor: 'rgba(15,118,110,0.2)',
          fill: true,
          tension: 0.35,
        },
      ],
    },
  });
  draw('users', {
    type: 'bar',
    data: {
      labels: MONTHS,
      datasets: [
        {
          label: 'Users',
          data: [120, 150, 170, 160, 210, 240, 260, 255, 300, 320],
          backgroundColor: '#4338ca',
        },
      ],
    },
  });
  draw('plans', {
    type: 'pie',
    data: {
      labels: ['Free', 'Team', 'Business'],
      datasets: [{ data: [62, 28, 10], backgroundColor: ['#94a3b8', '#2563eb', '#f59e0b'] }],
    },
  });
  draw('latency', {
    type: 'line',
    data: {
      labels: MONTHS,
      datasets: [
        { label: 'p50', data: [82, 80, 85, 79, 77, 75, 76, 72, 70, 69], borderColor: '#be123c' },
        { label: 'p95', data: [210, 190, 220, 200, 185, 180, 175, 170, 160, 158], borderColor: '#f97316' },
      ],
    },
  });
}
