/**
 * Small hand-drawn charts for the dashboard: an SVG bar chart over time (requests per minute) and
 * horizontal bars (latency per endpoint, rate-limit budget left). Colours come from CSS variables,
 * so both themes work; every chart has a text label for assistive technology.
 */
import { h, svg } from '../lib/dom'
import { formatCount } from '../lib/format'

/** One bar. */
export interface ChartPoint {
	label: string
	value: number
}

/** Options for `barChart`. */
export interface BarChartOptions {
	title: string
	unit?: string
	height?: number
	emptyText?: string
}

/** An SVG bar chart scaled to its largest value, first and last labels under the axis. */
export function barChart(points: ChartPoint[], options: BarChartOptions): HTMLElement {
	const width = 320
	const height = options.height ?? 120
	const top = 14
	const bottom = 18
	const plot = height - top - bottom
	const max = Math.max(1, ...points.map((point) => point.value))
	const step = points.length > 0 ? width / Math.max(points.length, 12) : width
	const barWidth = Math.max(2, step * 0.7)
	const unit = options.unit ? ` ${options.unit}` : ''
	const last = points.at(-1)
	const chart = svg('svg', {
		viewBox: `0 0 ${width} ${height}`,
		class: 'chart',
		role: 'img',
		'aria-label': last
			? `${options.title}: latest ${formatCount(last.value)}${unit}, highest ${formatCount(max)}${unit}`
			: `${options.title}: no data yet`
	})
	chart.append(svg('line', { x1: 0, x2: width, y1: top + plot, y2: top + plot, class: 'chart-axis' }))
	chart.append(svg('text', { x: 2, y: 10, class: 'chart-label' }, `${formatCount(max)}${unit}`))
	points.forEach((point, index) => {
		const x = index * step + (step - barWidth) / 2
		const barHeight = (Math.max(0, point.value) / max) * plot
		const bar = svg('rect', {
			x,
			y: top + plot - barHeight,
			width: barWidth,
			height: Math.max(barHeight, 1),
			rx: 1.5,
			class: 'chart-bar'
		})
		bar.append(svg('title', {}, `${point.label}: ${formatCount(point.value)}${unit}`))
		chart.append(bar)
	})
	if (points.length > 0) {
		chart.append(svg('text', { x: 2, y: height - 4, class: 'chart-label' }, points[0].label))
		if (last && points.length > 1) {
			const x = Math.min(width - 2, (points.length - 1) * step + step)
			chart.append(svg('text', { x, y: height - 4, class: 'chart-label', 'text-anchor': 'end' }, last.label))
		}
	} else {
		chart.append(
			svg(
				'text',
				{ x: width / 2, y: top + plot / 2, class: 'chart-label', 'text-anchor': 'middle' },
				options.emptyText ?? 'no data yet'
			)
		)
	}
	return h('figure', { className: 'chart-figure' }, h('figcaption', { text: options.title }), chart)
}

/** One horizontal bar. */
export interface BarItem {
	label: string
	value: number
	max: number
	/** Text shown at the right (default `value / max`). */
	detail?: string
}

/** Options for `horizontalBars`. */
export interface HorizontalBarsOptions {
	title: string
	/** `budget`: colour by how much is left (green, amber under 50 %, red under 20 %). */
	tone?: 'neutral' | 'budget'
	emptyText: string
}

/** Labelled horizontal bars, each an ARIA meter. */
export function horizontalBars(items: BarItem[], options: HorizontalBarsOptions): HTMLElement {
	const list = h('ul', { className: 'meters' })
	for (const item of items) {
		const ratio = item.max > 0 ? Math.min(1, Math.max(0, item.value / item.max)) : 0
		const level =
			options.tone === 'budget' ? (ratio < 0.2 ? 'is-low' : ratio < 0.5 ? 'is-mid' : 'is-ok') : 'is-neutral'
		const fill = h('span', { className: `meter-fill ${level}` })
		// CSSOM writes are not inline-style markup, so the page's CSP allows them.
		fill.style.width = `${(ratio * 100).toFixed(1)}%`
		list.append(
			h(
				'li',
				null,
				h(
					'div',
					{ className: 'meter-head' },
					h('span', { className: 'meter-label', text: item.label }),
					h('span', {
						className: 'meter-value',
						text: item.detail ?? `${formatCount(item.value)} / ${formatCount(item.max)}`
					})
				),
				h(
					'span',
					{
						className: 'meter-track',
						attrs: {
							role: 'meter',
							'aria-label': item.label,
							'aria-valuemin': 0,
							'aria-valuemax': item.max,
							'aria-valuenow': item.value,
							'aria-valuetext': item.detail
						}
					},
					fill
				)
			)
		)
	}
	if (items.length === 0) list.append(h('li', { className: 'meters-empty', text: options.emptyText }))
	return h('figure', { className: 'chart-figure' }, h('figcaption', { text: options.title }), list)
}
