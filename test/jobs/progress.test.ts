/**
 * The progress of `smkit collect`: on a terminal one line redrawn in place, whose wait counts down
 * while it lasts; without a terminal one plain line per page and per wait.
 */
import { expect, test } from 'bun:test'
import { ProgressReporter } from '../../src/jobs/progress'
import type { Job } from '../../src/jobs/types'

const job: Job = {
	id: 1,
	kind: 'followers',
	target: 'mega.travel',
	limit: null,
	owner: 'cli',
	demo: true,
	status: 'running',
	collected: 400,
	total: 5400,
	pages: 2,
	error: null,
	error_code: null,
	created_at: '2026-03-01T12:00:00.000Z',
	updated_at: '2026-03-01T12:00:00.000Z'
}

/** A terminal (or a log) that keeps what is written. */
function output(isTTY: boolean) {
	const writes: string[] = []
	return { writes, isTTY, columns: 120, write: (text: string) => writes.push(text) }
}

test('on a terminal, the time left of a wait counts down while nothing else happens', async () => {
	const terminal = output(true)
	const reporter = new ProgressReporter(terminal, 'followers mega.travel')
	try {
		reporter.event({ type: 'wait', job, wait_ms: 10_000, rate: 250 })
		expect(terminal.writes.at(-1)).toContain('waiting 10 s (budget slot)')
		const deadline = Date.now() + 8000
		while (!/waiting [1-9] s/.test(terminal.writes.at(-1) ?? '') && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100))
		expect(terminal.writes.at(-1)).toMatch(/waiting [1-9] s \(budget slot\)/)
		expect(terminal.writes.at(-1)).toStartWith('\r\x1b[2Kfollowers mega.travel')
		// The next page ends the wait: the line no longer shows it.
		reporter.event({ type: 'page', job: { ...job, collected: 600, pages: 3 }, added: 200, rate: 250 })
		expect(terminal.writes.at(-1)).not.toContain('waiting')
	} finally {
		reporter.finish()
	}
	const written = terminal.writes.length
	await new Promise((resolve) => setTimeout(resolve, 1200))
	expect(terminal.writes.length).toBe(written)
})

test('on a terminal, the time left includes the wait and goes down with it', async () => {
	const terminal = { ...output(true), columns: 200 }
	const reporter = new ProgressReporter(terminal, 'followers mega.travel')
	try {
		// 5,000 records left at 250/s: 20 s of collecting after a 10 s back-off.
		reporter.event({ type: 'status', job: { ...job, collected: 0, pages: 0 } })
		const waiting = { ...job, status: 'waiting' as const, error: 'HTTP 429; trying again in 10 s' }
		reporter.event({ type: 'wait', job: waiting, wait_ms: 10_000, rate: 250 })
		expect(terminal.writes.at(-1)).toContain(
			'250/s  ETA 0:30  waiting 10 s (back-off after an upstream error)'
		)
		const deadline = Date.now() + 8000
		while (!/ETA 0:2\d {2}waiting [1-9] s/.test(terminal.writes.at(-1) ?? '') && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100))
		expect(terminal.writes.at(-1)).toMatch(/250\/s {2}ETA 0:2\d {2}waiting [1-9] s/)
	} finally {
		reporter.finish()
	}
})

test('on a terminal, the rate falls while a wait lasts: no record comes meanwhile', async () => {
	const terminal = { ...output(true), columns: 200 }
	const reporter = new ProgressReporter(terminal, 'followers mega.travel')
	try {
		reporter.event({ type: 'status', job })
		reporter.event({ type: 'page', job: { ...job, collected: 600, pages: 3 }, added: 200, rate: 250 })
		const waiting = { ...job, collected: 600, pages: 3, status: 'waiting' as const }
		reporter.event({ type: 'wait', job: waiting, wait_ms: 10_000 })
		const deadline = Date.now() + 8000
		while (!/waiting [1-9] s/.test(terminal.writes.at(-1) ?? '') && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100))
		// 200 records in at least a second: under 250/s, and lower the longer it waits.
		const rate = Number(/ (\d+(?:\.\d)?)\/s /.exec(terminal.writes.at(-1) ?? '')?.[1])
		expect(rate).toBeLessThanOrEqual(200)
		expect(rate).toBeGreaterThan(0)
		// The time left is still the wait plus the rest at the pages' pace.
		expect(terminal.writes.at(-1)).toMatch(/ETA 0:2\d {2}waiting [1-9] s/)
	} finally {
		reporter.finish()
	}
})

test('without a terminal, a wait and a page are one line each', () => {
	const log = output(false)
	const reporter = new ProgressReporter(log, 'followers mega.travel')
	reporter.event({ type: 'wait', job, wait_ms: 10_000 })
	reporter.event({ type: 'page', job: { ...job, collected: 600, pages: 3 }, added: 200, rate: 250 })
	reporter.finish()
	expect(log.writes).toEqual([
		'waiting 10 s: for the next slot of the request budget\n',
		'page 3: 600 of 5,400 collected (+200), 250/s\n'
	])
})

test('on a narrow terminal the line fits the columns the terminal shows, wide characters counted twice', () => {
	const terminal = { ...output(true), columns: 40 }
	const reporter = new ProgressReporter(terminal, 'tag 東京カフェ巡り')
	try {
		reporter.event({
			type: 'page',
			job: { ...job, kind: 'tag', target: '東京カフェ巡り' },
			added: 200,
			rate: 250
		})
		const line = (terminal.writes.at(-1) as string).replace('\r\x1b[2K', '')
		expect(line).toStartWith('tag 東京カフェ巡り')
		expect(Bun.stringWidth(line)).toBeLessThanOrEqual(39)
	} finally {
		reporter.finish()
	}
})
