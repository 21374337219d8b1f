/**
 * The Jobs panel in Chromium with jobs of `smkit collect` on the playground's store: each card says
 * where the job comes from, a running one moves as its process stores pages (read from the store)
 * and offers only its downloads, and one whose process died shows as paused with the command that
 * continues it, and can be deleted.
 */
import { afterAll, expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, useDemoBrowser } from '../support/browser'

const store = openStore(':memory:')
const jobs = new JobStore(store)
// A live process other than this one, standing in for the terminal that runs `smkit collect`.
const terminal = Bun.spawn(['sleep', '120'])

const ui = useDemoBrowser({}, { playground: { sharedJobs: jobs } })
afterAll(() => terminal.kill())

const runBy = (id: number, pid: number) =>
	store.db.query("UPDATE jobs SET runner_pid = ?, status = 'running' WHERE id = ?").run(pid, id)

const records = (from: number, count: number) =>
	Array.from({ length: count }, (_, index) => ({ key: `${from + index}`, data: { pk: `${from + index}` } }))

test(
	'jobs of smkit collect: followed while their terminal runs them, paused with the way on when it died',
	async () => {
		const running = jobs.create({ kind: 'followers', target: 'mega.travel', limit: null }, 'cli')
		runBy(running.id, terminal.pid)
		jobs.setTarget(running.id, '1000000001', 400)
		jobs.storePage(running.id, records(1, 200), 'c1')
		const dead = Bun.spawn(['true'])
		await dead.exited
		const stopped = jobs.create({ kind: 'tag', target: 'sunset', limit: 500 }, 'cli')
		runBy(stopped.id, dead.pid)
		jobs.storePage(stopped.id, records(1, 30), 'c1')

		const { page } = ui
		await openPanel(page, ui.playground, 'jobs')
		const live = page.locator(`main article.job[data-job="${running.id}"]`)
		await live.locator('text=from smkit collect').waitFor()
		expect(await live.getAttribute('data-status')).toBe('running')
		await expect(live.locator('.job-figures').textContent()).resolves.toContain('200 / 400 records')
		expect(await live.textContent()).toContain('Collected by smkit collect in a terminal')
		// Only the downloads: its own process pauses, cancels and stops it.
		expect(await live.locator('.row-actions button').allInnerTexts()).toEqual(['CSV', 'JSONL', 'JSON'])

		// The terminal stores the last page: the card follows, from the store.
		jobs.storePage(running.id, records(201, 200), null)
		jobs.setStatus(running.id, 'done')
		await page.locator(`main article.job[data-job="${running.id}"][data-status="done"]`).waitFor()
		await expect(live.locator('.job-figures').textContent()).resolves.toContain('400 / 400 records')
		expect(await live.locator('.row-actions button').allInnerTexts()).toEqual([
			'CSV',
			'JSONL',
			'JSON',
			'Delete'
		])

		const gone = page.locator(`main article.job[data-job="${stopped.id}"]`)
		expect(await gone.getAttribute('data-status')).toBe('paused')
		expect(await gone.locator('.job-note').textContent()).toBe(
			'Stopped when smkit collect ended: run `smkit collect tag sunset --limit 500` again (same --db) to continue it'
		)
		await gone.getByRole('button', { name: `Delete job ${stopped.id}` }).click()
		await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
		await gone.waitFor({ state: 'detached' })
		expect(jobs.get(stopped.id)).toBeUndefined()

		// A collection started in a terminal while the panel is open appears without a Refresh.
		const later = jobs.create({ kind: 'likers', target: '3842790443716764595', limit: null }, 'cli')
		runBy(later.id, terminal.pid)
		await page
			.locator(`main article.job[data-job="${later.id}"][data-status="running"]`)
			.waitFor({ timeout: 15_000 })
		// The look does not rebuild an unchanged card (its buttons stay the same elements).
		const csv = page.getByRole('button', { name: `Download job ${running.id} as CSV` })
		await csv.evaluate((element) => element.setAttribute('data-kept', 'yes'))
		await page.waitForTimeout(5500)
		expect(await csv.getAttribute('data-kept')).toBe('yes')
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)

test(
	"a job collected from Instagram, on a demo playground's store, is marked and never resumed here",
	async () => {
		const real = new JobStore(store, { demo: false })
		const job = real.create({ kind: 'followers', target: 'natgeo', limit: 100 }, 'playground')
		real.storePage(job.id, records(1, 40), 'c1')
		real.setStatus(job.id, 'paused', 'Paused: resume it to continue from where it stopped')

		const { page } = ui
		await openPanel(page, ui.playground, 'jobs')
		const card = page.locator(`main article.job[data-job="${job.id}"]`)
		await card.locator('text=Instagram data').waitFor()
		expect(await card.locator('.tag', { hasText: 'Instagram data' }).getAttribute('title')).toBe(
			'Collected from Instagram: it continues only in a playground without --demo, on this store.'
		)
		// Its note says the same, not "Press Resume" for a button it does not have.
		expect(await card.locator('.job-note').textContent()).toBe(
			'Collected from Instagram: it continues only in a playground without --demo, on this store.'
		)
		// Downloads and Delete only: no Resume or Cancel for a job of the other Instagram.
		expect(await card.locator('.row-actions button').allInnerTexts()).toEqual([
			'CSV',
			'JSONL',
			'JSON',
			'Delete'
		])
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)

test(
	"the playground's own demo jobs, on a page opened straight at #jobs, are its own: no mark, Resume offered",
	async () => {
		const own = new JobStore(store, { demo: true })
		const job = own.create({ kind: 'followers', target: 'luna.explorer', limit: 50 }, 'playground')
		own.storePage(job.id, records(1, 20), 'c1')
		own.setStatus(job.id, 'paused', 'Paused: resume it to continue from where it stopped')

		const { page } = ui
		for (let load = 0; load < 3; load++) {
			await openPanel(page, ui.playground, 'jobs')
			const card = page.locator(`main article.job[data-job="${job.id}"]`)
			await card.getByRole('button', { name: `Resume job ${job.id}` }).waitFor()
			expect(await card.locator('.tag', { hasText: 'demo data' }).isVisible()).toBe(false)
			await page.reload()
		}
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)
