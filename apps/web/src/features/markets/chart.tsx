// The app's charts (lightweight-charts by TradingView), loaded only on the pages that show one through a
// dynamic import. The K-line: candles with SMA 5/10/20 on the main pane and volume in a pane below (SPEC
// §3: "main SMA, sub VOL"), times in the market's time zone, a crosshair OHLC legend. NavChart: an AI
// fund's realized NAV per unit at its past valuations (decision 0040). Both carry the TradingView
// attribution logo its licence asks for.
import type { CandleView, FundValuationView } from '@bourse/contract';
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { simpleMovingAverage } from './market-math.ts';

export const smaPeriods = [5, 10, 20] as const;
// Dark enough to be read as the legend's text on white (4.5:1).
export const smaColors = ['#b45309', '#7e57c2', '#1565c0'] as const;
const upColor = '#067d41';
const downColor = '#d0021b';

export interface ChartProps {
  candles: CandleView[];
  /** Changes when a new series is shown (symbol or interval): the view is fitted again. */
  seriesKey: string;
  digits: number;
  locale: string;
  timeZone: string;
  isIntraday: boolean;
  onHover: (candle: CandleView | null) => void;
}

function zoned(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const format = new Intl.DateTimeFormat(locale, { timeZone, ...options });
  return (time: Time) => format.format(new Date((time as number) * 1000));
}

const BORDER = '#e5e6eb';

/** What every chart here shares: white, a light grid, the attribution logo, prices in the locale's digits. */
function baseOptions(locale: string, digits: number, timeFormatter: (time: Time) => string) {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: '#ffffff' },
      textColor: '#4e5969',
      fontSize: 11,
      attributionLogo: true,
    },
    grid: { vertLines: { color: '#f2f3f5' }, horzLines: { color: '#f2f3f5' } },
    rightPriceScale: { borderColor: BORDER },
    localization: {
      locale,
      timeFormatter,
      priceFormatter: (price: number) =>
        new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(price),
    },
  } as const;
}

function candleData(candles: CandleView[]) {
  return candles.map((c) => ({
    time: c.time as UTCTimestamp,
    open: Number(c.open),
    high: Number(c.high),
    low: Number(c.low),
    close: Number(c.close),
  }));
}

function volumeData(candles: CandleView[]) {
  return candles.map((c) => ({
    time: c.time as UTCTimestamp,
    value: Number(c.volume),
    color: Number(c.close) >= Number(c.open) ? 'rgba(10,138,74,0.45)' : 'rgba(208,2,27,0.45)',
  }));
}

export default function PriceChart({ candles, seriesKey, digits, locale, timeZone, isIntraday, onHover }: ChartProps) {
  const container = useRef<HTMLDivElement | null>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<{
    candles: ISeriesApi<'Candlestick'>;
    volume: ISeriesApi<'Histogram'>;
    smas: ISeriesApi<'Line'>[];
  } | null>(null);
  const shownRef = useRef<{ key: string; candles: CandleView[] }>({ key: '', candles: [] });
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const keyRef = useRef(seriesKey);
  keyRef.current = seriesKey;
  const hoverRef = useRef(onHover);
  hoverRef.current = onHover;

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const dayFormat = zoned(locale, timeZone, { day: '2-digit', month: 'short' });
    const timeFormat = zoned(locale, timeZone, { hour: '2-digit', minute: '2-digit', hour12: false });
    const fullFormat = zoned(locale, timeZone, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    const base = baseOptions(locale, digits, fullFormat);
    const chart = createChart(node, {
      ...base,
      layout: { ...base.layout, panes: { separatorColor: BORDER, enableResize: false } },
      crosshair: { mode: CrosshairMode.Normal },
      timeScale: {
        borderColor: BORDER,
        timeVisible: isIntraday,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) =>
          type === TickMarkType.Time || type === TickMarkType.TimeWithSeconds ? timeFormat(time) : dayFormat(time),
      },
    });
    const candleSeries = chart.addSeries(CandlestickSeries, {
      upColor,
      downColor,
      borderUpColor: upColor,
      borderDownColor: downColor,
      wickUpColor: upColor,
      wickDownColor: downColor,
      priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits },
    });
    const smas = smaPeriods.map((_, i) =>
      chart.addSeries(LineSeries, {
        color: smaColors[i],
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
      }),
    );
    const volume = chart.addSeries(
      HistogramSeries,
      { priceFormat: { type: 'volume' }, priceLineVisible: false, lastValueVisible: false },
      1,
    );
    chart.panes()[1]?.setStretchFactor(0.25);
    chart.subscribeCrosshairMove((param) => {
      if (param.time === undefined) {
        hoverRef.current(null);
        return;
      }
      const found = candlesRef.current.find((c) => c.time === param.time);
      hoverRef.current(found ?? null);
    });
    chartRef.current = chart;
    seriesRef.current = { candles: candleSeries, volume, smas };
    const initial = candlesRef.current;
    candleSeries.setData(candleData(initial));
    volume.setData(volumeData(initial));
    smaPeriods.forEach((period, i) => {
      smas[i]?.setData(
        simpleMovingAverage(initial, period).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })),
      );
    });
    chart.timeScale().fitContent();
    shownRef.current = { key: keyRef.current, candles: initial };
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, [digits, locale, timeZone, isIntraday]);

  useEffect(() => {
    const series = seriesRef.current;
    const chart = chartRef.current;
    if (!series || !chart) return;
    const shown = shownRef.current;
    if (shown.key === seriesKey && shown.candles === candles) return;
    const last = candles[candles.length - 1];
    const isSameSeries = shown.key === seriesKey && shown.candles.length > 0;
    const isTailUpdate =
      isSameSeries &&
      last !== undefined &&
      (candles.length === shown.candles.length || candles.length === shown.candles.length + 1) &&
      candles[0]?.time === shown.candles[0]?.time;
    if (isTailUpdate && last) {
      series.candles.update(candleData([last])[0]!);
      series.volume.update(volumeData([last])[0]!);
      smaPeriods.forEach((period, i) => {
        const points = simpleMovingAverage(candles.slice(-period), period);
        const point = points[points.length - 1];
        if (point) series.smas[i]?.update({ time: point.time as UTCTimestamp, value: point.value });
      });
    } else {
      series.candles.setData(candleData(candles));
      series.volume.setData(volumeData(candles));
      smaPeriods.forEach((period, i) => {
        series.smas[i]?.setData(
          simpleMovingAverage(candles, period).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })),
        );
      });
      if (!isSameSeries) chart.timeScale().fitContent();
    }
    shownRef.current = { key: seriesKey, candles };
  }, [candles, seriesKey]);

  return <div ref={container} className="kline-chart__canvas" data-testid="kline-canvas" />;
}

export interface NavChartProps {
  /** The fund's past valuations, oldest first (its realized history: the chart draws nothing beyond the last). */
  history: FundValuationView[];
  digits: number;
  locale: string;
  label: string;
}

/**
 * An AI fund's realized NAV per unit, one point per past valuation, on a time axis of trading days (the
 * valuation's day, shown as a UTC date so no time zone shifts it). The figures are drawn as numbers (the
 * canvas needs them); the exact values are in the table beside it. Fixed edges: no scrolling past either end.
 */
export function NavChart({ history, digits, locale, label }: NavChartProps) {
  const container = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const dayFormat = zoned(locale, 'UTC', { day: '2-digit', month: 'short' });
    const fullFormat = zoned(locale, 'UTC', { dateStyle: 'medium' });
    const chart = createChart(node, {
      ...baseOptions(locale, digits, fullFormat),
      handleScroll: false,
      handleScale: false,
      timeScale: {
        borderColor: BORDER,
        fixLeftEdge: true,
        fixRightEdge: true,
        tickMarkFormatter: (time: Time) => dayFormat(time),
      },
    });
    const line = chart.addSeries(LineSeries, {
      color: '#1565c0',
      lineWidth: 2,
      // A short history is a few points: each is marked. A single valuation is its point alone (the library
      // draws a lone point as a level across the bar's width, which would read as a line into the future).
      pointMarkersVisible: history.length < 30,
      lineVisible: history.length > 1,
      priceLineVisible: false,
      priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits },
    });
    line.setData(
      history.map((v) => ({ time: (Date.parse(`${v.day}T00:00:00Z`) / 1000) as UTCTimestamp, value: Number(v.nav) })),
    );
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [history, digits, locale]);
  return (
    <div ref={container} className="fund-chart__canvas" role="img" aria-label={label} data-testid="fund-nav-chart" />
  );
}
