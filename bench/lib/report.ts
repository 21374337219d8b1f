/**
 * The benchmark's output: one table on stdout (every figure with its reference and target) and
 * `bench/results.json` (git-ignored) with each headline figure under a stable id, the targets and
 * the raw figures they come from.
 */
import { writeFileSync } from 'node:fs'
import { round } from './stats'

/** One row of the table. `id` is set for the headline figures kept in results.json. */
export interface Row {
	id?: string
	figure: string
	value: string
	reference: string
	/** e.g. `>= 0.70`; empty for raw figures without a target. */
	target?: string
	met?: boolean
}

/** A headline figure: its value and, when it has one, its target. */
export interface Headline {
	value: number
	unit: string
	target?: { op: '<' | '<=' | '>='; limit: number }
}

/** Whether a headline figure meets its target (true when it has none). */
export function meets(headline: Headline): boolean {
	if (!headline.target) return true
	const { op, limit } = headline.target
	if (op === '<') return headline.value < limit
	return op === '<=' ? headline.value <= limit : headline.value >= limit
}

/** `< 150 ms`-style text of a target. */
export function targetText(headline: Headline): string {
	if (!headline.target) return ''
	const unit = headline.unit === 'ratio' ? 'x' : ` ${headline.unit}`
	return `${headline.target.op} ${headline.target.limit}${unit}`
}

/** Renders rows as a fixed-width text table. */
export function formatTable(rows: readonly Row[]): string {
	const header: Row = { figure: 'figure', value: 'value', reference: 'reference', target: 'target' }
	const cells = (row: Row) => [
		row.id ?? '',
		row.figure,
		row.value,
		row.reference,
		row.target ?? '',
		row.target ? (row.met ? 'met' : 'MISSED') : ''
	]
	const all = [['id', ...cells(header).slice(1, 5), 'result'], ...rows.map(cells)]
	const widths = all[0]!.map((_, column) => Math.max(...all.map((line) => (line[column] ?? '').length)))
	const render = (line: string[]) =>
		line
			.map((cell, column) => cell.padEnd(widths[column]!))
			.join(' | ')
			.trimEnd()
	const rule = widths.map((width) => '-'.repeat(width)).join('-|-')
	return [render(all[0]!), rule, ...all.slice(1).map(render)].join('\n')
}

/** Writes results.json: headline figures by id (rounded), targets, raw figures and run metadata. */
export function writeResults(
	file: string,
	headlines: Record<string, Headline>,
	raw: Record<string, unknown>,
	meta: Record<string, unknown>
): void {
	const figures: Record<string, number> = {}
	const targets: Record<string, { target: string; met: boolean; unit: string }> = {}
	for (const [id, headline] of Object.entries(headlines)) {
		figures[id] = round(headline.value, 3)
		targets[id] = { target: targetText(headline), met: meets(headline), unit: headline.unit }
	}
	writeFileSync(file, `${JSON.stringify({ ...figures, targets, raw: roundDeep(raw), meta }, null, 2)}\n`)
}

/** Rounds every number in a JSON-like value to 3 decimals (raw samples stay readable). */
function roundDeep(value: unknown): unknown {
	if (typeof value === 'number') return Number.isFinite(value) ? round(value, 3) : null
	if (Array.isArray(value)) return value.map(roundDeep)
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, roundDeep(item)]))
	return value
}
