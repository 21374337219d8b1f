/**
 * The Jobs panel in Chromium, what its form and cards say: a limit the API would refuse is refused
 * in the browser, a refusal names the field the server named, and an old refusal goes when the
 * browser blocks the next start; a done job whose limit exceeds its list shows it whole; a waiting
 * job counts its retry down and shows no old rate, nor does a job just resumed; a job paused on an
 * ended session gives the way on once, and the session badge follows at once; a done job of the
 * other Instagram does not say it continues elsewhere.
 */
import { describe, expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore } from '../../src/store/db'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, useDemoBrowser } from '../support/browser'

// A store shared with the playground, so a test can put a job of the other Instagram in it.
const store = openStore(':memory:')
const ui = useDemoBrowser({}, { playground: { sharedJobs: new JobStore(store) } })

/** Fills the start form and submits it. */
async function startJob(kind: string, target: string, limit = ''): Promise<void> {
	await ui.page.locator('#job-kind').selectOption(kind)
	await ui.page.locator('#job-target').fill(target)
	await ui.page.locator('#job-limit').fill(limit)
	await ui.page.locator('main form button[type=submit]').click()
}

/** The card of the newest job whose title names `title`. */
const card = (title: string) => ui.page.locator('main article.job', { hasText: title }).first()

/** Waits until the newest card titled `title` shows `status`. */
async function waitForStatus(title: string, status: string, timeout = 60_000): Promise<void> {
	await ui.page
		.locator(`main article.job[data-status="${status}"]`, { hasText: title })
		.first()
		.waitFor({ timeout })
}

describe('Jobs: what the form and the cards say', () => {
	test(
		'the limit input refuses in the browser a limit above what the API takes',
		async () => {
			const { page } = ui
			await openPanel(page, ui.playground, 'jobs')
			expect(await page.locator('#job-limit').getAttribute('max')).toBe('999999999999999')
			const sent: string[] = []
			const onRequest = (request: { method(): string; url(): string }) => {
				if (request.method() === 'POST') sent.push(new URL(request.url()).pathname)
			}
			page.on('request', onRequest)
			await startJob('followers', DEMO_PRESETS.luna.username, '1e20')
			expect(
				await page.locator('#job-limit').evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)
			).toBe(true)
			// An answer to anything sent before this request has arrived by now.
			await page.evaluate(() => fetch('/api/status'))
			page.off('request', onRequest)
			expect(sent).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	test(
		'an old refusal goes when the browser blocks the next start',
		async () => {
			const { page } = ui
			await openPanel(page, ui.playground, 'jobs')
			await startJob('comments', 'not a post')
			const alert = page.locator('main .form-error .error-box')
			await alert.waitFor()
			expect(await alert.textContent()).toContain('Correct the target')
			await startJob('followers', DEMO_PRESETS.luna.username, '0')
			await alert.waitFor({ state: 'detached', timeout: 3000 })
		},
		BROWSER_TIMEOUT
	)

	test(
		'a refusal names the field the server named',
		async () => {
			const { page } = ui
			await openPanel(page, ui.playground, 'jobs')
			// The browser's check taken away: the server refuses the limit.
			await page.locator('#job-limit').evaluate((input: HTMLInputElement) => input.removeAttribute('max'))
			await startJob('followers', DEMO_PRESETS.luna.username, '99999999999999999')
			const alert = page.locator('main .form-error .error-box')
			await alert.waitFor()
			const text = (await alert.textContent()) ?? ''
			expect(text).toContain("Invalid body field 'limit'")
			expect(text).toContain('Correct the limit and start again.')
			expect(text).not.toContain('Correct the target')
		},
		BROWSER_TIMEOUT
	)

	test(
		'a done job whose limit exceeds the list shows the whole list and a full bar',
		async () => {
			const { page } = ui
			await openPanel(page, ui.playground, 'jobs')
			const post = DEMO_PRESETS.media[0]?.url as string
			await startJob('comments', post, '100')
			await waitForStatus('comments', 'done')
			const done = card('comments')
			const figures = (await done.locator('.job-figures').textContent()) ?? ''
			const count = /^([\d,]+) records \(the whole list; limit 100\)/.exec(figures)?.[1]
			expect(count).toBeDefined()
			expect(Number(count?.replace(/,/g, ''))).toBeLessThan(100)
			const [value, max] = await done
				.locator('progress')
				.evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])
			expect(value).toBe(max)
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)

	const megaTitle = `followers · ${DEMO_PRESETS.mega.username}`

	test(
		'a waiting job shows no rate of before it waited',
		async () => {
			const { page } = ui
			const { faults } = ui.playground.simulator
			faults.set({ kind: 'latency', latencyMs: 300, pathPattern: 'followers' })
			await openPanel(page, ui.playground, 'jobs')
			await startJob('followers', DEMO_PRESETS.mega.username)
			const figures = card(megaTitle).locator('.job-figures')
			await figures.filter({ hasText: /\d\/s/ }).waitFor()
			// Instagram rate-limits the next pages (until the next test lets them through): the job waits.
			faults.set({ kind: 'rate_limit', retryAfter: 6, pathPattern: 'followers' })
			await waitForStatus(megaTitle, 'waiting')
			expect(await figures.textContent()).not.toMatch(/\d\/s/)
		},
		BROWSER_TIMEOUT
	)

	test(
		"a waiting job's retry is counted down",
		async () => {
			const { page } = ui
			const note = card(megaTitle).locator('.job-note')
			await note.filter({ hasText: /trying again in \d+ s/ }).waitFor()
			const first = Number(/trying again in (\d+) s/.exec((await note.textContent()) ?? '')?.[1])
			expect(first).toBeGreaterThan(2)
			await page.waitForFunction(
				([selector, before]) => {
					const text = document.querySelector(selector as string)?.textContent ?? ''
					const match = /trying again in (\d+) s/.exec(text)
					return match !== null && Number(match[1]) < (before as number)
				},
				['main article.job[data-status="waiting"] .job-note', first] as const,
				{ timeout: 5000 }
			)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a resumed job shows no rate before its first new page',
		async () => {
			const { faults } = ui.playground.simulator
			// Pages come again, slowly: the job runs, at a rate.
			faults.set({ kind: 'latency', latencyMs: 300, pathPattern: 'followers' })
			await waitForStatus(megaTitle, 'running', 20_000)
			const mega = card(megaTitle)
			const figures = mega.locator('.job-figures')
			await figures.filter({ hasText: /\d\/s/ }).waitFor()
			await mega.locator('button', { hasText: 'Pause' }).click()
			await waitForStatus(megaTitle, 'paused')
			// Its next page takes 5 s: what the card shows meanwhile has no rate of this run yet.
			faults.set({ kind: 'latency', latencyMs: 5000, pathPattern: 'followers' })
			await mega.locator('button', { hasText: 'Resume' }).click()
			await mega.locator('button', { hasText: 'Pause' }).waitFor()
			expect(await figures.textContent()).not.toMatch(/\d\/s/)
			await mega.locator('button', { hasText: 'Cancel' }).click()
			await waitForStatus(megaTitle, 'cancelled')
			faults.clear()
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a done job of the other Instagram does not say it continues elsewhere; a paused one does',
		async () => {
			const real = new JobStore(store, { demo: false })
			const records = Array.from({ length: 40 }, (_, index) => ({
				key: `${index}`,
				data: { pk: `${index}` }
			}))
			const done = real.create({ kind: 'followers', target: 'natgeo', limit: null }, 'playground')
			real.storePage(done.id, records, null)
			real.setStatus(done.id, 'done')
			const paused = real.create({ kind: 'following', target: 'natgeo', limit: null }, 'playground')
			real.storePage(paused.id, records, 'c1')
			real.setStatus(paused.id, 'paused', 'Paused: resume it to continue from where it stopped')
			const { page } = ui
			await openPanel(page, ui.playground, 'jobs')
			const doneCard = page.locator(`main article.job[data-job="${done.id}"]`)
			await doneCard.locator('.tag', { hasText: 'Instagram data' }).waitFor()
			expect(await doneCard.textContent()).not.toContain('continues')
			expect(await doneCard.locator('.tag', { hasText: 'Instagram data' }).getAttribute('title')).toBe(
				'Collected from Instagram.'
			)
			expect(await page.locator(`main article.job[data-job="${paused.id}"] .job-note`).textContent()).toBe(
				'Collected from Instagram: it continues only in a playground without --demo, on this store.'
			)
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a job paused on an ended session: the session badge follows at once',
		async () => {
			const { page } = ui
			const { simulator } = ui.playground
			simulator.faults.set({ kind: 'latency', latencyMs: 400, pathPattern: 'followers' })
			await openPanel(page, ui.playground, 'jobs')
			await page.locator('#badges .badge-session[data-session="valid"]').waitFor()
			await startJob('followers', DEMO_PRESETS.mega.username)
			await waitForStatus(megaTitle, 'running')
			// When the card shows the pause and when the badge shows the ended session.
			await page.evaluate(() => {
				const times: Record<string, number> = {}
				;(window as unknown as { times: Record<string, number> }).times = times
				const look = () => {
					if (!times.paused && document.querySelector('main article.job[data-status="paused"]'))
						times.paused = performance.now()
					if (!times.badge && document.querySelector('#badges .badge-session[data-session="expired"]'))
						times.badge = performance.now()
				}
				new MutationObserver(look).observe(document.body, {
					subtree: true,
					attributes: true,
					childList: true
				})
			})
			simulator.session.set('expired')
			await waitForStatus(megaTitle, 'paused')
			await page.locator('#badges .badge-session[data-session="expired"]').waitFor({ timeout: 20_000 })
			const times = await page.evaluate(() => (window as unknown as { times: Record<string, number> }).times)
			// From the job's event, not from the status polled every 15 s.
			expect((times.badge as number) - (times.paused as number)).toBeLessThan(1500)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a job paused on an ended session says how to reconnect once',
		async () => {
			const { simulator } = ui.playground
			await waitForStatus(megaTitle, 'paused')
			const note = (await card(megaTitle).locator('.job-note').textContent()) ?? ''
			expect(note).toContain('log in again')
			expect(note.match(/connect the account again/gi)).toHaveLength(1)
			simulator.faults.clear()
			simulator.session.set('valid')
			await card(megaTitle).locator('button', { hasText: 'Cancel' }).click()
			await waitForStatus(megaTitle, 'cancelled')
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)
})
