/**
 * Fixes from a second browser audit of the playground, in Chromium against a demo playground:
 *
 * - the Jobs panel's periodic look is no History entry (it pushed the person's requests, their
 *   Re-run buttons and kept results out of the last 50); opening the panel is one;
 * - "Show all" on a comment's row shows every reply at once, no "Load more";
 * - "Collect all" under a follower search asks first, saying the search is not applied and how
 *   many followers the job collects; declined, no job starts;
 * - after Instagram refused the session once, the next successful answer clears the banner at once,
 *   not at the next status poll (the page's clock is paused, so no poll comes).
 */
import { describe, expect, test } from 'bun:test'
import { THREAD } from '../../assets/playground/panels/catalog-fields'
import type { FaultKind } from '../../src/simulator/faults'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

/** The playground's answer to a GET, as the page's server sends it. */
async function apiData(path: string): Promise<any> {
	const response = await fetch(`${ui.playground.origin}${path}`)
	return ((await response.json()) as { data: unknown }).data
}

/** Waits (up to `deadline` ms) until `check` holds. */
async function until(check: () => boolean, deadline: number): Promise<void> {
	const end = Date.now() + deadline
	while (!check()) {
		if (Date.now() > end) throw new Error('the condition did not hold in time')
		await Bun.sleep(100)
	}
}

describe('History', () => {
	test(
		"the Jobs panel's periodic look is no History entry; opening the panel is one",
		async () => {
			const page = ui.page
			await apiData('/api/users/username/luna.explorer')
			const [mine] = (await apiData('/api/history')) as { id: number }[]
			let looks = 0
			const count = (request: { method(): string; url(): string }) => {
				if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/jobs') looks++
			}
			page.on('requestfinished', count)
			try {
				await openPanel(page, ui.playground, 'jobs')
				// Opening the panel lists the jobs; then it looks again every few seconds.
				await until(() => looks >= 3, 30_000)
			} finally {
				page.off('requestfinished', count)
			}
			const entries = (await apiData('/api/history')) as { id: number; method: string; path: string }[]
			const newer = entries.filter((entry) => entry.id > (mine?.id ?? 0))
			expect(newer.filter((entry) => entry.method === 'GET' && entry.path === '/api/jobs').length).toBe(1)
			expect(entries.some((entry) => entry.id === mine?.id)).toBe(true)
		},
		BROWSER_TIMEOUT
	)
})

describe('comment replies', () => {
	test(
		'"Show all" on a comment\'s row shows every reply at once',
		async () => {
			const page = ui.page
			const state = ui.playground.simulator.state
			const media = state.media(THREAD.mediaPk)
			const thread = media && state.commentsOf(media).find((comment) => comment.pk === THREAD.commentPk)
			const expected = thread?.replies.map((reply) => reply.text) ?? []
			expect(expected.length).toBeGreaterThan(2)
			await openPanel(page, ui.playground, 'media/comments')
			await page.locator('main input[name="media_pk"]').fill(THREAD.mediaPk)
			await runAction(page, 'comments')
			await page
				.locator('main .data-table tbody tr', { hasText: thread?.text ?? '' })
				.locator('button', { hasText: 'Show all' })
				.click()
			await page
				.locator('main .result[aria-busy="false"] .result-caption', { hasText: '/replies/' })
				.waitFor()
			const texts = await page.locator('main .data-table tbody tr td:nth-child(3)').allTextContents()
			expect(texts).toEqual(expected)
			expect(await page.locator('main .load-more button').count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)
})

describe('"Collect all" under a follower search', () => {
	test(
		'asks first, saying the search is not applied and how many followers the job collects',
		async () => {
			const page = ui.page
			const luna = (await apiData('/api/users/id/1000000002')) as { follower_count: number }
			await openPanel(page, ui.playground, 'friendships/followers')
			await page.locator('main input[name="q"]').fill('mateo')
			const result = await runAction(page, 'followers')
			const shown = await result.locator('.data-table tbody tr').count()
			expect(shown).toBeLessThan(luna.follower_count)
			const jobsBefore = ((await apiData('/api/jobs')) as unknown[]).length

			const collect = result.locator('button', { hasText: 'Collect all' })
			expect(await collect.textContent()).toBe('Collect all (without the search)')
			const dialog = page.locator('dialog.dialog[open]')
			await collect.click()
			await dialog.waitFor()
			const all = `all ${luna.follower_count} followers`
			expect(await dialog.locator('.dialog-title').textContent()).toBe(`Collect ${all} of luna.explorer?`)
			expect(await dialog.locator('.dialog-message').textContent()).toContain(
				'The search "mateo" is not applied: a job collects every follower of luna.explorer'
			)
			const confirm = dialog.locator('button', { hasText: `Collect ${all} (without the search)` })
			expect(await confirm.count()).toBe(1)
			// Declined: no job starts.
			await dialog.locator('button', { hasText: 'Cancel' }).click()
			await dialog.waitFor({ state: 'detached' })
			expect(((await apiData('/api/jobs')) as unknown[]).length).toBe(jobsBefore)
			// Declining is no failure: no error toast.
			expect(await page.locator('.toast-error').count()).toBe(0)

			await collect.click()
			await dialog.locator('button', { hasText: `Collect ${all} (without the search)` }).click()
			await page.waitForFunction(() => window.location.hash.startsWith('#jobs'))
			const [job] = (await apiData('/api/jobs')) as { kind: string; target: string }[]
			expect(job).toMatchObject({ kind: 'followers', target: 'luna.explorer' })
			await fetch(`${ui.playground.origin}/api/jobs/${(job as { id?: number }).id}/cancel`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}'
			})
		},
		BROWSER_TIMEOUT
	)
})

describe('the session banner', () => {
	for (const kind of ['login', 'challenge'] satisfies FaultKind[]) {
		test(
			`after a one-time ${kind} fault, the next successful answer clears the banner at once`,
			async () => {
				// A page of its own with its clock paused: the status poll (every 15 s) never comes.
				const page = await ui.context.newPage()
				try {
					await page.clock.install()
					await openPanel(page, ui.playground, 'users/username')
					await page.locator('#badges .badge-session[data-session="valid"]').waitFor()
					await page.clock.pauseAt(Date.now() + 1000)
					const banner = page.locator('#banner')
					expect(await banner.isHidden()).toBe(true)
					ui.playground.simulator.faults.add({ kind, times: 1 })
					const refused = await runAction(page, 'username')
					expect(await refused.textContent()).toContain(
						`${kind === 'login' ? 'login' : 'challenge'}_required`
					)
					await banner.waitFor({ state: 'visible' })
					const answered = await runAction(page, 'username')
					expect(await answered.textContent()).toContain('luna.explorer')
					await banner.waitFor({ state: 'hidden', timeout: 10_000 })
					expect(await page.locator('#badges .badge-session').getAttribute('data-session')).toBe('valid')
				} finally {
					ui.playground.simulator.faults.clear()
					await page.close()
				}
			},
			BROWSER_TIMEOUT
		)
	}
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
