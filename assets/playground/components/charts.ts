/**
 * Two small hand-drawn charts for the dashboard: an SVG bar chart (requests per minute, latency)
 * and a list of meters (rate-limit budget left). Colours come from CSS variables, so both themes
 * work; every chart has a text label for assistive technology and a tooltip per bar.
 */
import { h, svg } from '../lib/dom'
import { formatCount } from '../lib/format'

/** One bar. */
export interface ChartPoint {
	label: string
	value: number
	/** Optional second series drawn thinner over the bar (e.g. p95 over average). */
	secondary?: number
}

/** Options for `barChart`. */
export interface BarChartOptions {
	title: string
	unit?: string
	height?: number
}

/** An SVG bar chart scaled to its largest value; empty data draws a flat line and says so. */
export function barChart(points: ChartPoint[], options: BarChartOptions): HTMLElement {
	const width = 320
	const height = options.height ?? 120
	const top = 14
	const bottom = 18
	const plot = height - top - bottom
	const max = Math.max(1, ...points.map((point) => Math.max(point.value, point.secondary ?? 0)))
	const step = points.length > 0 ? width / points.length : width
	const barWidth = Math.max(2, Math.min(28, step * 0.7))
	const unit = options.unit ? ` ${options.unit}` : ''
	const chart = svg('svg', {
		viewBox: `0 0 ${width} ${height}`,
		class: 'chart',
		role: 'img',
		'aria-label': `${options.title}: ${points.length} values, highest ${formatCount(Math.round(max))}${unit}`
	})
	chart.append(svg('line', { x1: 0, x2: width, y1: top + plot, y2: top + plot, class: 'chart-axis' }))
	chart.append(svg('text', { x: 2, y: 10, class: 'chart-label' }, `${formatCount(Math.round(max))}${unit}`))
	points.forEach((point, index) => {
		const x = index * step + (step - barWidth) / 2
		const barHeight = (Math.max(0, point.value) / max) * plot
		const bar = svg('rect', {
			x,
			y: top + plot - barHeight,
			width: barWidth,
			height: Math.max(barHeight, 0.5),
			rx: 2,
			class: 'chart-bar'
		})
		bar.append(svg('title', {}, `${point.label}: ${formatCount(point.value)}${unit}`))
		chart.append(bar)
		if (point.secondary !== undefined) {
			const y = top + plot - (Math.max(0, point.secondary) / max) * plot
			const mark = svg('line', { x1: x - 2, x2: x + barWidth + 2, y1: y, y2: y, class: 'chart-mark' })
			mark.append(svg('title', {}, `${point.label} p95: ${formatCount(point.secondary)}${unit}`))
			chart.append(mark)
		}
	})
	if (points.length > 0) {
		chart.append(svg('text', { x: 2, y: height - 4, class: 'chart-label' }, points[0].label))
		if (points.length > 1)
			chart.append(
				svg(
					'text',
					{ x: width - 2, y: height - 4, class: 'chart-label', 'text-anchor': 'end' },
					points[points.length - 1].label
				)
			)
	} else {
		chart.append(
			svg(
				'text',
				{ x: width / 2, y: top + plot / 2, class: 'chart-label', 'text-anchor': 'middle' },
				'no data yet'
			)
		)
	}
	return h('figure', { className: 'chart-figure' }, h('figcaption', { text: options.title }), chart)
}

/** One meter: how much of `max` is left. */
export interface MeterItem {
	label: string
	value: number
	max: number
	detail?: string
}

/** Horizontal meters (ARIA `meter`), coloured by how much budget is left. */
export function meters(title: string, items: MeterItem[]): HTMLElement {
	const list = h('ul', { className: 'meters' })
	for (const item of items) {
		const ratio = item.max > 0 ? Math.min(1, Math.max(0, item.value / item.max)) : 0
		const fill = h('span', {
			className: `meter-fill ${ratio < 0.2 ? 'is-low' : ratio < 0.5 ? 'is-mid' : ''}`
		})
		// CSSOM writes are not inline-style markup, so the page's CSP allows them.
		fill.style.width = `${(ratio * 100).toFixed(1)}%`
		list.append(
			h(
				'li',
				null,
				h(
					'div',
					{ className: 'meter-head' },
					h('span', { text: item.label }),
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
							'aria-valuenow': item.value
						}
					},
					fill
				)
			)
		)
	}
	if (items.length === 0) list.append(h('li', { className: 'result-empty', text: 'No rate-limit data yet.' }))
	return h('figure', { className: 'chart-figure' }, h('figcaption', { text: title }), list)
}
