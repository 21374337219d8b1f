/**
 * The Watch panel in Chromium while runs take a while (the simulator answers #coffee slowly): the
 * form is free again as soon as a watch is added, its first run going on in the background; a row
 * says its watch runs, or waits its turn behind another (runs go one at a time), and shows the
 * outcome when the run ends, a run it did not start too (the panel looks again while one runs); a
 * watch deleted during its run says it was deleted, with no failed run.
 */
import { expect, test } from 'bun:test'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

/** The table row of the watch named `label`. */
const row = (label: string) => ui.page.locator('main .watch-table tbody tr', { hasText: label })

/** The "Last run" cell of the watch named `label`. */
const lastRun = (label: string) => row(label).locator('td').nth(3)

/** A watch as the API lists it (the fields the tests read). */
interface Listed {
	id: number
	target: string
	running: boolean
	snapshots: number
}

/** The watches as the API lists them. */
async function listed(): Promise<Listed[]> {
	const answer = await fetch(`${ui.playground.origin}/api/watches`)
	return ((await answer.json()) as { data: Listed[] }).data
}

/** Adds a watch with the form. */
async function add(target: string): Promise<void> {
	await ui.page.locator('main input[name="target"]').fill(target)
	await ui.page.locator('main form button[type=submit]').click()
}

/** Waits until the API says the watch of `target` runs. */
async function untilRunning(target: string): Promise<void> {
	const deadline = Date.now() + 10_000
	while (!(await listed()).find((watch) => watch.target === target)?.running) {
		if (Date.now() > deadline) throw new Error(`the watch of ${target} did not start running`)
		await Bun.sleep(100)
	}
}

test(
	'the form is free once a watch is added; rows say running, then queued behind it, then the outcome',
	async () => {
		const { page } = ui
		// The request of a #coffee run that names the tag takes 8 s: the run lasts that long.
		ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 8000, pathPattern: 'coffee' })
		await openPanel(page, ui.playground, 'watch')
		await add('#coffee')
		await row('#coffee').waitFor()
		// The form is usable again while the first run goes on.
		await page.waitForFunction(
			() =>
				document.querySelector('main form button[type=submit]')?.getAttribute('aria-disabled') === 'false',
			undefined,
			{ timeout: 5000 }
		)
		await untilRunning('coffee')
		expect((await listed()).find((watch) => watch.target === 'coffee')?.snapshots).toBe(0)
		expect(await page.locator('main form button[type=submit]').getAttribute('aria-disabled')).toBe('false')
		await lastRun('#coffee').filter({ hasText: 'running…' }).waitFor({ timeout: 5000 })
		// Another watch added meanwhile waits for its turn, and says so.
		await add('#sunset')
		await lastRun('#sunset').filter({ hasText: 'queued' }).waitFor({ timeout: 5000 })
		expect(await lastRun('#coffee').textContent()).toBe('running…')
		expect((await listed()).find((watch) => watch.target === 'coffee')?.snapshots).toBe(0)
		// Both end with their outcome, without a Refresh.
		await row('#coffee').filter({ hasText: '1 snapshot' }).waitFor({ timeout: 60_000 })
		await row('#sunset').filter({ hasText: '1 snapshot' }).waitFor({ timeout: 30_000 })
		await lastRun('#sunset').filter({ hasText: /^ok$/ }).waitFor({ timeout: 10_000 })
		expect(await lastRun('#coffee').textContent()).toBe('ok')
		ui.playground.simulator.faults.clear()
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)

/** The watch of #`tag` (added through the API when the earlier test did not). */
async function ensureWatch(tag: string): Promise<Listed> {
	const found = (await listed()).find((watch) => watch.target === tag)
	if (found) return found
	await fetch(`${ui.playground.origin}/api/watches`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ hashtag: tag })
	})
	return ensureWatch(tag)
}

test(
	'"Run now" shows the run at once and its outcome when it ends',
	async () => {
		const { page } = ui
		const before = await ensureWatch('sunset')
		await openPanel(page, ui.playground, 'watch')
		ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 4000, pathPattern: 'sunset' })
		await row('#sunset').locator('button', { hasText: 'Run now' }).click()
		await lastRun('#sunset').filter({ hasText: 'running…' }).waitFor({ timeout: 3000 })
		expect((await listed()).find((watch) => watch.target === 'sunset')).toMatchObject({
			running: true,
			snapshots: before.snapshots
		})
		await row('#sunset')
			.filter({ hasText: `${before.snapshots + 1} snapshot` })
			.waitFor({ timeout: 30_000 })
		expect(await lastRun('#sunset').textContent()).toBe('ok')
		ui.playground.simulator.faults.clear()
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)

test(
	'a watch deleted during its run is reported deleted, not as a failed run',
	async () => {
		const { page } = ui
		await ensureWatch('coffee')
		await openPanel(page, ui.playground, 'watch')
		ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 8000, pathPattern: 'coffee' })
		const answered = page.waitForResponse(
			(response) => response.request().method() === 'POST' && /\/api\/watches\/\d+\/run$/.test(response.url())
		)
		await row('#coffee').locator('button', { hasText: 'Run now' }).click()
		await untilRunning('coffee')
		await row('#coffee').locator('button', { hasText: 'Delete' }).click()
		await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
		await page.locator('.toast', { hasText: 'Deleted the watch of #coffee' }).waitFor({ timeout: 5000 })
		await row('#coffee').waitFor({ state: 'detached' })
		// The run ends for that: no failed run is reported.
		await (await answered).finished()
		await page.evaluate(() => fetch('/api/status'))
		await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)))
		ui.playground.simulator.faults.clear()
		expect(await page.locator('.toast', { hasText: 'Run failed' }).count()).toBe(0)
		expect(await page.locator('.toast-error').count()).toBe(0)
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)

test(
	'a run the panel did not start shows as running, and its outcome when it ends, without a Refresh',
	async () => {
		const { page } = ui
		const before = await ensureWatch('sunset')
		ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 4000, pathPattern: 'sunset' })
		// Another tab (or the scheduler) runs it.
		const elsewhere = fetch(`${ui.playground.origin}/api/watches/${before.id}/run`, { method: 'POST' })
		await untilRunning('sunset')
		// Opened anew (from another panel): it lists the watches.
		await openPanel(page, ui.playground, 'jobs')
		await openPanel(page, ui.playground, 'watch')
		await lastRun('#sunset').filter({ hasText: 'running…' }).waitFor({ timeout: 3000 })
		await row('#sunset')
			.filter({ hasText: `${before.snapshots + 1} snapshot` })
			.waitFor({ timeout: 15_000 })
		expect(await lastRun('#sunset').textContent()).toBe('ok')
		expect((await elsewhere).status).toBe(200)
		ui.playground.simulator.faults.clear()
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)
