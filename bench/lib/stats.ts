/** Small statistics helpers for the benchmarks: medians and percentiles over samples. */

/** The value at percentile `p` (0-100) of `values`, nearest-rank on a sorted copy; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return Number.NaN
	const sorted = Float64Array.from(values).sort()
	const rank = Math.ceil((p / 100) * sorted.length)
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number
}

/** The median of `values` (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
	if (values.length === 0) return Number.NaN
	const sorted = Float64Array.from(values).sort()
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 === 1
		? (sorted[middle] as number)
		: ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** Rounds to `digits` decimals (for the table and the JSON file). */
export function round(value: number, digits = 2): number {
	const factor = 10 ** digits
	return Math.round(value * factor) / factor
}

/** Times `task` `times` times after `warmup` untimed calls; returns the milliseconds of each timed call. */
export async function timeRepeated(
	task: () => unknown | Promise<unknown>,
	times: number,
	warmup = 3
): Promise<number[]> {
	for (let index = 0; index < warmup; index++) await task()
	const samples: number[] = []
	for (let index = 0; index < times; index++) {
		const started = performance.now()
		await task()
		samples.push(performance.now() - started)
	}
	return samples
}
