/**
 * Progress of `smkit collect` on stderr. On a terminal: one line redrawn in place with a bar,
 * collected/total, rate, time left (a wait included) and any wait (a budget slot, a back-off after
 * 429/5xx), counting down while it lasts.
 * Without a terminal: one plain line per stored page and per wait, for logs.
 */
import { clip, terminalLine } from '../cli-error'
import type { Job, JobEvent } from './types'

/** Where progress goes: stderr or a test double. */
export interface ProgressOutput {
	write(text: string): unknown
	isTTY?: boolean
	columns?: number
}

/** `5400` → `5,400`; rates above 100 without decimals. */
export const number = (value: number) =>
	(value >= 100 ? Math.round(value) : value).toLocaleString('en-US', { maximumFractionDigits: 1 })

/** `1 page`, `5,400 records`. */
export const counted = (value: number, noun: string) => `${number(value)} ${value === 1 ? noun : `${noun}s`}`

/** `75` → `1:15`, `3725` → `1:02:05`. */
export function clock(seconds: number): string {
	const whole = Math.max(0, Math.round(seconds))
	const hours = Math.floor(whole / 3600)
	const minutes = Math.floor((whole % 3600) / 60)
	const rest = String(whole % 60).padStart(2, '0')
	return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

/** How many records the job will have at the end, when known. */
function expectedTotal(job: Job): number | null {
	if (job.total === null) return job.limit
	return job.limit === null ? job.total : Math.min(job.total, job.limit)
}

/** Reports a job's events as they come. */
export class ProgressReporter {
	#rate = 0
	/** When the first event came, and the records the job had then: the base of the rate during a wait. */
	#startedAt = 0
	#collectedAtStart = 0
	#waitUntil = 0
	#waitReason = ''
	#lastDraw = 0
	#drawn = false
	/** The line drawn last shows a wait. */
	#waitShown = false
	/** On a terminal, redraws the line every second while a wait lasts, so its time left counts down. */
	#ticker: ReturnType<typeof setInterval> | undefined

	constructor(
		private readonly output: ProgressOutput,
		private readonly label: string
	) {}

	/** One event of the job. */
	event(event: JobEvent): void {
		if (this.#startedAt === 0) {
			this.#startedAt = Date.now()
			this.#collectedAtStart = event.job.collected
		}
		if (event.rate !== undefined) this.#rate = event.rate
		if (event.type === 'wait') {
			this.#waitUntil = Date.now() + (event.wait_ms ?? 0)
			this.#waitReason = event.job.status === 'waiting' ? 'back-off after an upstream error' : 'budget slot'
			if (!this.output.isTTY)
				this.output.write(
					`waiting ${Math.ceil((event.wait_ms ?? 0) / 1000)} s: ${terminalLine(event.job.error ?? 'for the next slot of the request budget')}\n`
				)
		}
		if (event.type === 'page') {
			this.#waitUntil = 0
			if (!this.output.isTTY) {
				const total = expectedTotal(event.job)
				this.output.write(
					`page ${event.job.pages}: ${number(event.job.collected)}${total === null ? '' : ` of ${number(total)}`} collected (+${event.added ?? 0}), ${number(this.#rate)}/s\n`
				)
			}
		}
		if (!this.output.isTTY) return
		// A page is drawn at most every 100 ms, but at once when the line still shows a wait.
		this.#draw(event.job, event.type !== 'page' || this.#waitShown)
		this.#stopTicker()
		if (this.#waitUntil > Date.now()) {
			const job = event.job
			this.#ticker = setInterval(() => {
				if (this.#waitUntil <= Date.now()) this.#stopTicker()
				this.#draw(job, true)
			}, 1000)
			this.#ticker.unref?.()
		}
	}

	/** Clears the progress line (before the summary). */
	finish(): void {
		this.#stopTicker()
		if (this.output.isTTY && this.#drawn) this.output.write('\r\x1b[2K')
		this.#drawn = false
	}

	/**
	 * No page comes while a wait lasts: the records per second since the start, which fall as the
	 * wait runs on, never above the rate of the last page.
	 */
	#rateWhileWaiting(job: Job, now: number): number {
		const seconds = (now - this.#startedAt) / 1000
		if (seconds <= 0) return this.#rate
		return Math.min(this.#rate, Math.round(((job.collected - this.#collectedAtStart) / seconds) * 10) / 10)
	}

	#stopTicker(): void {
		clearInterval(this.#ticker)
		this.#ticker = undefined
	}

	#draw(job: Job, force: boolean): void {
		const now = Date.now()
		if (!force && now - this.#lastDraw < 100) return
		this.#lastDraw = now
		const total = expectedTotal(job)
		const parts = [this.label]
		if (total !== null && total > 0) {
			const share = Math.min(1, job.collected / total)
			const width = 20
			const filled = Math.round(share * width)
			parts.push(`[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`)
			parts.push(`${number(job.collected)}/${number(total)}`, `${Math.floor(share * 100)}%`)
		} else parts.push(number(job.collected))
		this.#waitShown = this.#waitUntil > now
		parts.push(`${number(this.#waitShown ? this.#rateWhileWaiting(job, now) : this.#rate)}/s`)
		// The time left counts the wait too (it goes down while the job waits, never below the wait),
		// then the rest at the pace of the pages so far.
		const waitLeft = Math.max(0, this.#waitUntil - now) / 1000
		if (total !== null && this.#rate > 0 && job.collected < total)
			parts.push(`ETA ${clock(waitLeft + (total - job.collected) / this.#rate)}`)
		if (this.#waitShown)
			parts.push(`waiting ${Math.ceil((this.#waitUntil - now) / 1000)} s (${this.#waitReason})`)
		const columns = this.output.columns && this.output.columns > 20 ? this.output.columns : 100
		// Cut to what the terminal shows (a hashtag's CJK characters take two columns each): a line
		// that wraps leaves its first part behind at every redraw.
		this.output.write(`\r\x1b[2K${clip(parts.join('  '), columns - 1)}`)
		this.#drawn = true
	}
}
