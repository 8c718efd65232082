/**
 * Puppeteer (pulled in by the `capture-website` benchmark baseline) must never download a
 * browser: installs here are offline, and the benchmarks use Debian's /usr/bin/chromium.
 * @type {import("puppeteer").Configuration}
 */
module.exports = {
  skipDownload: true,
  chrome: { skipDownload: true },
  'chrome-headless-shell': { skipDownload: true },
  firefox: { skipDownload: true },
};
