/**
 * The Jobs panel in Chromium against a demo playground: a job started from the form shows every
 * stored page as it arrives (the progress bar moves once per page, fed by the job's server-sent
 * events), pause, resume and cancel work, the records download as CSV, JSONL and JSON, "Collect
 * all" under a list result starts the job for the whole list, and errors say what to do.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import {
	BROWSER_TIMEOUT,
	expectCleanPage,
	openPanel,
	runAction,
	SCREENSHOT_DIR,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser({ acceptDownloads: true })

beforeAll(async () => {
	await mkdir(SCREENSHOT_DIR, { recursive: true })
}, BROWSER_TIMEOUT)

/** Fills the start form and submits it. */
async function startJob(kind: string, target: string, limit = ''): Promise<void> {
	await ui.page.locator('#job-kind').selectOption(kind)
	await ui.page.locator('#job-target').fill(target)
	await ui.page.locator('#job-limit').fill(limit)
	await ui.page.locator('main form button[type=submit]').click()
}

/** The card of the newest job whose title names `target`. */
const card = (target: string) => ui.page.locator('main article.job', { hasText: target }).first()

/** Waits until the card shows `status`. */
async function waitForStatus(target: string, status: string, timeout = 60_000): Promise<void> {
	await ui.page
		.locator(`main article.job[data-status="${status}"]`, { hasText: target })
		.first()
		.waitFor({ timeout })
}

describe('Jobs panel', () => {
	test(
		'a job started from the form shows each stored page as it arrives and ends with the whole list',
		async () => {
			// Each followers page takes a moment, so pages arrive one by one; the first takes longer, so
			// the page has opened the job's event stream before any page is stored.
			ui.playground.simulator.faults.set([
				{ kind: 'latency', latencyMs: 2500, times: 1, pathPattern: 'followers' },
				{ kind: 'latency', latencyMs: 30, pathPattern: 'followers' }
			])
			await openPanel(ui.page, ui.playground, 'jobs')
			// Every value the cards' page counter ever holds (the old value of each change, and the last).
			await ui.page.evaluate(() => {
				const seen: string[] = []
				;(window as any).pagesSeen = seen
				new MutationObserver((mutations) => {
					for (const mutation of mutations) if (mutation.oldValue !== null) seen.push(mutation.oldValue)
				}).observe(document.querySelector('main') as Node, {
					subtree: true,
					attributeFilter: ['data-pages'],
					attributeOldValue: true
				})
			})
			await startJob('followers', DEMO_PRESETS.mega.username)
			await waitForStatus(DEMO_PRESETS.mega.username, 'done')
			ui.playground.simulator.faults.clear()
			const mega = card(DEMO_PRESETS.mega.username)
			const pages = Number(await mega.getAttribute('data-pages'))
			// 5,400 followers in pages of 200.
			expect(pages).toBe(27)
			const seen = new Set([
				...(await ui.page.evaluate(() => (window as any).pagesSeen as string[])),
				String(pages)
			])
			const everyPage = Array.from({ length: pages + 1 }, (_, index) => String(index))
			expect(everyPage.filter((value) => !seen.has(value))).toEqual([])
			const bar = mega.locator('progress')
			expect(await bar.evaluate((element: HTMLProgressElement) => [element.value, element.max])).toEqual([
				5400, 5400
			])
			expect(await mega.locator('.job-figures').textContent()).toContain('5,400 / 5,400 records')
			await ui.page.screenshot({ path: join(SCREENSHOT_DIR, 'jobs-1280.png'), fullPage: true })
		},
		BROWSER_TIMEOUT
	)

	test(
		'pause, resume and cancel; the records download as CSV, JSONL and JSON',
		async () => {
			ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 400, pathPattern: 'feed|graphql' })
			await openPanel(ui.page, ui.playground, 'jobs')
			await startJob('posts', DEMO_PRESETS.mega.username)
			const posts = card(`posts · ${DEMO_PRESETS.mega.username}`)
			await posts.locator('button', { hasText: 'Pause' }).click()
			await waitForStatus(`posts · ${DEMO_PRESETS.mega.username}`, 'paused')
			expect(await posts.locator('.job-note').textContent()).toContain('Press Resume')
			await posts.locator('button', { hasText: 'Resume' }).click()
			await ui.page
				.locator('main article.job[data-status="running"]', {
					hasText: `posts · ${DEMO_PRESETS.mega.username}`
				})
				.waitFor()
			// A few pages in: the bar shows part of the list.
			await ui.page.waitForFunction(
				() =>
					Number(document.querySelector<HTMLElement>('article.job[data-status="running"]')?.dataset.pages) >=
					2
			)
			await ui.page.screenshot({ path: join(SCREENSHOT_DIR, 'jobs-running-1280.png'), fullPage: true })
			await posts.locator('button', { hasText: 'Cancel' }).click()
			await waitForStatus(`posts · ${DEMO_PRESETS.mega.username}`, 'cancelled')
			ui.playground.simulator.faults.clear()

			const mega = card(`followers · ${DEMO_PRESETS.mega.username}`)
			const files: Record<string, string> = {}
			for (const format of ['CSV', 'JSONL', 'JSON']) {
				const [download] = await Promise.all([
					ui.page.waitForEvent('download'),
					mega.locator('button', { hasText: new RegExp(`^${format}$`) }).click()
				])
				expect(download.suggestedFilename()).toMatch(
					new RegExp(`^job-\\d+-followers-mega\\.travel\\.${format.toLowerCase()}$`)
				)
				files[format] = await readFile((await download.path()) as string, 'utf8')
			}
			const jsonl = (files.JSONL as string)
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line).pk)
			expect(jsonl).toHaveLength(5400)
			expect(new Set(jsonl).size).toBe(5400)
			expect((JSON.parse(files.JSON as string) as { pk: string }[]).map((user) => user.pk)).toEqual(jsonl)
			// The header line and one line per follower (the CSV starts with a byte order mark).
			expect(
				(files.CSV as string)
					.replace(/^\uFEFF/, '')
					.trim()
					.split(/\r?\n/)
			).toHaveLength(5401)
		},
		BROWSER_TIMEOUT
	)

	test(
		'"Collect all" under a followers result starts the job for the whole list',
		async () => {
			await openPanel(ui.page, ui.playground, 'friendships/followers')
			const result = await runAction(ui.page, 'followers')
			expect(await result.locator('.result-count').textContent()).toBe('50 items')
			await result.locator('button', { hasText: 'Collect all' }).click()
			await ui.page.locator('main .panel-title', { hasText: 'Jobs' }).waitFor()
			await waitForStatus(`followers · ${DEMO_PRESETS.luna.username}`, 'done')
			expect(
				await card(`followers · ${DEMO_PRESETS.luna.username}`).locator('.job-figures').textContent()
			).toContain('263 / 263 records · 2 pages')
		},
		BROWSER_TIMEOUT
	)

	test(
		'a job Instagram rate-limits shows that it waits and needs nothing, then finishes',
		async () => {
			ui.playground.simulator.faults.set({
				kind: 'rate_limit',
				retryAfter: 1,
				pathPattern: 'friendships/\\d+/following'
			})
			await openPanel(ui.page, ui.playground, 'jobs')
			await startJob('following', DEMO_PRESETS.luna.username)
			await waitForStatus(`following · ${DEMO_PRESETS.luna.username}`, 'waiting')
			const note = await card(`following · ${DEMO_PRESETS.luna.username}`).locator('.job-note').textContent()
			expect(note).toContain('Nothing to do: the job continues by itself.')
			ui.playground.simulator.faults.clear()
			await waitForStatus(`following · ${DEMO_PRESETS.luna.username}`, 'done')
		},
		BROWSER_TIMEOUT
	)

	test(
		'a double click on "Start job" starts one job',
		async () => {
			await openPanel(ui.page, ui.playground, 'jobs')
			await ui.page.locator('#job-kind').selectOption('tag')
			await ui.page.locator('#job-target').fill('coffee')
			await ui.page.locator('#job-limit').fill('5')
			const start = ui.page.locator('main form button[type=submit]')
			await start.dblclick()
			await waitForStatus('tag · coffee', 'done')
			await ui.page.waitForFunction(
				() => !document.querySelector<HTMLButtonElement>('main form button[type=submit]')?.disabled
			)
			const answer = await fetch(`${ui.playground.origin}/api/jobs`)
			const jobs = ((await answer.json()) as { data: { kind: string; target: string }[] }).data
			expect(jobs.filter((job) => job.kind === 'tag' && job.target === 'coffee')).toHaveLength(1)
			expect(await ui.page.locator('main article.job', { hasText: 'tag · coffee' }).count()).toBe(1)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a double click on Pause or Cancel acts once, with no "could not" message',
		async () => {
			ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 400, pathPattern: 'followers' })
			const posts: string[] = []
			const onRequest = (request: { method(): string; url(): string }) => {
				if (request.method() === 'POST') posts.push(new URL(request.url()).pathname)
			}
			ui.page.on('request', onRequest)
			await openPanel(ui.page, ui.playground, 'jobs')
			await startJob('followers', DEMO_PRESETS.mega.username)
			const title = `followers · ${DEMO_PRESETS.mega.username}`
			await waitForStatus(title, 'running')
			await card(title).locator('button', { hasText: 'Pause' }).dblclick()
			await waitForStatus(title, 'paused')
			await card(title).locator('button', { hasText: 'Cancel' }).dblclick()
			await waitForStatus(title, 'cancelled')
			// An answer to anything sent before this request has arrived by now.
			await ui.page.evaluate(() => fetch('/api/status'))
			ui.page.off('request', onRequest)
			ui.playground.simulator.faults.clear()
			expect(posts.filter((path) => /^\/api\/jobs\/\d+\/(pause|cancel)$/.test(path)).length).toBe(2)
			expect(await ui.page.locator('.toast', { hasText: 'Could not' }).count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)

	test(
		'errors say what to do',
		async () => {
			await openPanel(ui.page, ui.playground, 'jobs')
			await startJob('comments', 'not a post')
			const alert = ui.page.locator('main .form-error .error-box')
			await alert.waitFor()
			expect(await alert.textContent()).toContain('Correct the target')
			await startJob('followers', DEMO_PRESETS.missing.username)
			await waitForStatus(DEMO_PRESETS.missing.username, 'failed')
			const note = await card(DEMO_PRESETS.missing.username).locator('.job-note').textContent()
			expect(note).toContain('Check the spelling of the target')
			// Resuming would fail the same way, so the card offers no Resume (Delete stays).
			const failed = card(DEMO_PRESETS.missing.username)
			expect(await failed.getByRole('button', { name: /^Resume job/ }).count()).toBe(0)
			expect(await failed.getByRole('button', { name: /^Delete job/ }).count()).toBe(1)
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)
})
