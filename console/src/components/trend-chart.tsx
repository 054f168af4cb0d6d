import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One point of a pass-rate trend: a run, its pass rate and the 95% interval around it. */
export interface TrendPoint {
  /** When the run finished, in seconds since the epoch. */
  at: number;
  rate: number;
  low: number;
  high: number;
}

const HEIGHT = 220;

/**
 * Pass rate over runs, with the 95% interval as a band: a drop that stays inside the band of the
 * run before is noise, one that leaves it is worth a look. The table beside it carries the same
 * figures for readers who do not see the chart.
 */
export default function TrendChart({ points, label }: { points: TrendPoint[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current!;
    const percent = (values: number[]) => values.map((v) => v * 100);
    const data: uPlot.AlignedData = [
      points.map((p) => p.at),
      percent(points.map((p) => p.rate)),
      percent(points.map((p) => p.low)),
      percent(points.map((p) => p.high)),
    ];
    const accent = getComputedStyle(element).getPropertyValue('--accent').trim() || '#1d4ed8';
    const axis = { stroke: getComputedStyle(element).color, grid: { stroke: 'rgba(128, 128, 128, 0.2)' } };
    const plot = new uPlot(
      {
        width: element.clientWidth || 600,
        height: HEIGHT,
        scales: { y: { range: [0, 100] } },
        axes: [axis, { ...axis, values: (_, ticks) => ticks.map((t) => `${t}%`) }],
        series: [
          {},
          {
            label: 'Pass rate',
            stroke: accent,
            width: 2,
            points: { show: true, size: 6 },
            value: (_, v) => (v === null ? '–' : `${v.toFixed(1)}%`),
          },
          { label: '95% low', stroke: 'transparent', points: { show: false } },
          { label: '95% high', stroke: 'transparent', points: { show: false } },
        ],
        bands: [{ series: [3, 2], fill: 'rgba(59, 130, 246, 0.15)' }],
        legend: { show: false },
      },
      data,
      element,
    );
    element.dataset.points = String(points.length);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points]);

  return <div ref={container} className="trend" role="img" aria-label={label} />;
}
