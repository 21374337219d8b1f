/**
 * Small hand-drawn charts for the dashboard: an SVG bar chart over time (requests per minute, the
 * failed part in the error colour) and horizontal bars (latency per endpoint, rate-limit budget
 * left). Colours come from CSS variables, so both themes work; every chart has a text label for
 * assistive technology.
 */
import { h, svg } from '../../common/dom'
import { formatCount } from '../lib/format'

/** One bar. */
export interface ChartPoint {
	/** Short text under the axis, e.g. `19:41`. */
	label: string
	value: number
	/** The part of `value` drawn in the error colour (stacked at the bottom of the bar). */
	errors?: number
	/** The bar's tooltip name (default `label`). */
	title?: string
	/** Minutes since the epoch, for bars over time: labels then fall on round times (:00, :15...). */
	minute?: number
}

/** Options for `barChart`. */
export interface BarChartOptions {
	title: string
	unit?: string
	height?: number
	emptyText?: string
}

/** One label under the axis: its text, where its middle is, and the box it takes. */
export interface AxisLabel {
	text: string
	x: number
	anchor: 'start' | 'middle' | 'end'
	left: number
	right: number
}

/** Width of a label in viewBox units: the labels are 10 units high, digits about 6 wide. */
const labelWidth = (text: string) => text.length * 6.2
const LABEL_GAP = 10

/**
 * Which bars get a label under the axis, and where: the latest bar always, then every so many bars
 * (on round minutes when the points have them), skipping any label that would come closer than
 * LABEL_GAP to the one kept after it, and keeping the outermost ones inside the chart. Labels
 * therefore never overlap.
 */
export function axisLabels(points: readonly ChartPoint[], step: number, width: number): AxisLabel[] {
	const widest = Math.max(0, ...points.map((point) => labelWidth(point.label)))
	const nice = [1, 2, 3, 5, 10, 15, 20, 30, 60]
	const every = nice.find((count) => count * step >= widest + LABEL_GAP) ?? points.length
	const last = points.length - 1
	const labelled = (point: ChartPoint, index: number) =>
		index === last || (point.minute !== undefined ? point.minute % every === 0 : (last - index) % every === 0)
	const labels: AxisLabel[] = []
	for (let index = last; index >= 0; index--) {
		if (!labelled(points[index], index)) continue
		const text = points[index].label
		const size = labelWidth(text)
		const middle = index * step + step / 2
		let label: AxisLabel = {
			text,
			x: middle,
			anchor: 'middle',
			left: middle - size / 2,
			right: middle + size / 2
		}
		// One unit of margin at either end: text measures a little wider than its advance.
		if (label.right > width - 1)
			label = { text, x: width - 1, anchor: 'end', left: width - 1 - size, right: width - 1 }
		if (label.left < 1) label = { text, x: 1, anchor: 'start', left: 1, right: 1 + size }
		const next = labels.at(-1)
		if (next && label.right + LABEL_GAP > next.left) continue
		labels.push(label)
	}
	return labels.reverse()
}

/** An SVG bar chart scaled to its largest value, with time labels that never overlap. */
export function barChart(points: ChartPoint[], options: BarChartOptions): HTMLElement {
	const width = 320
	const height = options.height ?? 120
	const top = 14
	const bottom = 18
	const plot = height - top - bottom
	const max = Math.max(1, ...points.map((point) => point.value))
	const step = width / Math.max(points.length, 12)
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
		const errorHeight = (Math.min(Math.max(0, point.errors ?? 0), Math.max(0, point.value)) / max) * plot
		const group = svg('g', { class: 'chart-column' })
		const errors = point.errors ? `, ${formatCount(point.errors)} failed` : ''
		group.append(
			svg('title', {}, `${point.title ?? point.label}: ${formatCount(point.value)}${unit}${errors}`)
		)
		if (point.value > 0) {
			group.append(
				svg('rect', {
					x,
					y: top + plot - barHeight,
					width: barWidth,
					height: Math.max(barHeight, 1),
					rx: 1.5,
					class: 'chart-bar'
				})
			)
		}
		if (errorHeight > 0) {
			group.append(
				svg('rect', {
					x,
					y: top + plot - errorHeight,
					width: barWidth,
					height: Math.max(errorHeight, 1),
					class: 'chart-bar chart-bar-error'
				})
			)
		}
		// A transparent full-height target, so the tooltip works on empty minutes too.
		group.append(svg('rect', { x: index * step, y: top, width: step, height: plot, class: 'chart-hit' }))
		chart.append(group)
	})
	for (const label of axisLabels(points, step, width)) {
		chart.append(
			svg(
				'text',
				{ x: label.x, y: height - 4, class: 'chart-label chart-axis-label', 'text-anchor': label.anchor },
				label.text
			)
		)
	}
	if (points.length === 0) {
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
	/** False: a heading just above already says `title`; it then names the figure without being shown twice. */
	caption?: boolean
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
	return options.caption === false
		? h('figure', { className: 'chart-figure', attrs: { 'aria-label': options.title } }, list)
		: h('figure', { className: 'chart-figure' }, h('figcaption', { text: options.title }), list)
}
