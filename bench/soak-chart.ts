// The soak's chart: heap (after GC) and RSS of each process over time, as one self-contained SVG
// with two panels, no script and no external reference.

import type { MemorySample, MemorySeries, ProcessRole } from './soak-memory.ts';

const WIDTH = 900;
const PANEL_HEIGHT = 260;
const MARGIN = { left: 64, right: 180, top: 40, bottom: 44 };
const COLOURS: Record<ProcessRole, string> = {
  client: '#1f77b4',
  'http-server': '#d62728',
  'stdio-server': '#2ca02c',
};
const LABELS: Record<ProcessRole, string> = {
  client: 'soak client process',
  'http-server': 'HTTP server process',
  'stdio-server': 'stdio servers (mean of live)',
};

interface Panel {
  title: string;
  field: 'heapUsed' | 'rss';
}

const PANELS: readonly Panel[] = [
  { title: 'Heap used after forced GC (MiB)', field: 'heapUsed' },
  { title: 'Resident set size (MiB)', field: 'rss' },
];

/**
 * Stdio servers come and go (the soak kills them): their samples become one line, the mean over
 * the processes that reported within each sampling period.
 */
function meanPerPeriod(samples: readonly MemorySample[], periodMs: number): MemorySample[] {
  const buckets = new Map<number, MemorySample[]>();
  for (const sample of samples) {
    const key = Math.floor(sample.t / periodMs);
    buckets.set(key, [...(buckets.get(key) ?? []), sample]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, bucket]) => ({
      t: key * periodMs + periodMs / 2,
      pid: 0,
      heapUsed: bucket.reduce((sum, s) => sum + s.heapUsed, 0) / bucket.length,
      rss: bucket.reduce((sum, s) => sum + s.rss, 0) / bucket.length,
    }));
}

function niceStep(range: number): number {
  const raw = range / 5;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? power * 10;
}

function renderPanel(
  panel: Panel,
  lines: ReadonlyArray<[ProcessRole, MemorySample[]]>,
  frame: { top: number; t0: number; t1: number },
): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = lines.flatMap(([, samples]) => samples.map((s) => s[panel.field] / 1048576));
  const yMax = Math.max(1, ...values) * 1.1;
  const yStep = niceStep(yMax);
  const spanMin = Math.max((frame.t1 - frame.t0) / 60_000, 1 / 60);
  const xStep = niceStep(spanMin);
  const x = (t: number): number => MARGIN.left + ((t - frame.t0) / 60_000 / spanMin) * plotWidth;
  const y = (v: number): number => frame.top + MARGIN.top + plotHeight - (v / yMax) * plotHeight;
  const parts: string[] = [
    `<text x="${MARGIN.left}" y="${frame.top + 24}" font-size="14" font-weight="bold">${panel.title}</text>`,
  ];
  for (let v = 0; v <= yMax; v += yStep)
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${Math.round(v * 10) / 10}</text>`,
    );
  for (let m = 0; m <= spanMin + 1e-9; m += xStep)
    parts.push(
      `<text x="${x(frame.t0 + m * 60_000)}" y="${frame.top + PANEL_HEIGHT - MARGIN.bottom + 16}" font-size="11" text-anchor="middle">${Math.round(m * 100) / 100}</text>`,
    );
  parts.push(
    `<text x="${MARGIN.left + plotWidth / 2}" y="${frame.top + PANEL_HEIGHT - 8}" font-size="11" text-anchor="middle">minutes since start</text>`,
    `<rect x="${MARGIN.left}" y="${frame.top + MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`,
  );
  lines.forEach(([role, samples], index) => {
    const points = samples.map((s) => `${x(s.t).toFixed(1)},${y(s[panel.field] / 1048576).toFixed(1)}`);
    if (points.length > 0)
      parts.push(
        `<polyline fill="none" stroke="${COLOURS[role]}" stroke-width="1.5" points="${points.join(' ')}"/>`,
      );
    const legendY = frame.top + MARGIN.top + 14 + index * 18;
    parts.push(
      `<line x1="${WIDTH - MARGIN.right + 12}" x2="${WIDTH - MARGIN.right + 32}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${COLOURS[role]}" stroke-width="3"/>`,
      `<text x="${WIDTH - MARGIN.right + 38}" y="${legendY}" font-size="11">${LABELS[role]}</text>`,
    );
  });
  return parts.join('\n');
}

/** Renders the series as an SVG document; `title` heads it, `periodMs` is the sampling period. */
export function renderChart(series: MemorySeries, title: string, periodMs: number): string {
  const lines: Array<[ProcessRole, MemorySample[]]> = [
    ['client', series.client],
    ['http-server', series['http-server']],
    ['stdio-server', meanPerPeriod(series['stdio-server'], periodMs)],
  ];
  const times = lines.flatMap(([, samples]) => samples.map((s) => s.t));
  const frame = { t0: Math.min(...times), t1: Math.max(...times) };
  const height = 40 + PANELS.length * PANEL_HEIGHT;
  const panels = PANELS.map((panel, index) =>
    renderPanel(panel, lines, { ...frame, top: 40 + index * PANEL_HEIGHT }),
  );
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="15">${escaped}</text>`,
    ...panels,
    '</svg>',
    '',
  ].join('\n');
}
