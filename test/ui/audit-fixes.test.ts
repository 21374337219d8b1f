/**
 * Fixes from a browser audit of the playground, in Chromium against a demo playground:
 *
 * - "Collect all" keeps the focus when the start fails (busy through aria-disabled, never
 *   `disabled`), and a started job's card takes it in the Jobs panel, as "Start job" does;
 * - the numbers of the Analytics heat map, the green "done" tag and the session badge read at
 *   4.5:1 or more, in the light and the dark theme;
 * - a long History message wraps inside its card on a phone;
 * - the first request that finds the server gone shows the banner and an unknown session at once;
 *   the first answer after that brings everything back;
 * - the Jobs and Watch lists are no live regions: a status line per panel says what changed, and
 *   a job's buttons stay the same elements while its pages arrive;
 * - a Jobs target of spaces is refused in the browser; the watch delete dialog says "its follower
 *   list" for one snapshot; the column menu's boxes have clean names; "Media mix" is said once.
 */
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser({ acceptDownloads: true })

/** Whether the focus is on `selector` (in the page). */
const focusIsOn = (page: Page, selector: string) =>
	page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)

/**
 * The WCAG contrast ratio of each element's text colour on its background colour, as the browser
 * computed them (`rgb()`, or `color(srgb …)` for a `color-mix()`), from `getComputedStyle`.
 */
function contrastsOf(page: Page, selector: string) {
	return page.evaluate((wanted) => {
		const channels = (text: string): number[] => {
			const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)/.exec(text)
			if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3])]
			const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(text)
			if (rgb) return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255]
			throw new Error(`unknown colour ${text}`)
		}
		const luminance = (text: string) => {
			const [r, g, b] = channels(text).map((value) =>
				value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
			) as [number, number, number]
			return 0.2126 * r + 0.7152 * g + 0.0722 * b
		}
		return [...document.querySelectorAll<HTMLElement>(wanted)].map((element) => {
			const style = getComputedStyle(element)
			const [fore, back] = [luminance(style.color), luminance(style.backgroundColor)]
			return {
				text: element.textContent ?? '',
				ratio: (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05)
			}
		})
	}, selector)
}

describe('"Collect all"', () => {
	test(
		'a start that fails (server gone) leaves the focus on the button, busy through aria-disabled only',
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'friendships/followers')
			const result = await runAction(page, 'followers')
			const collect = result.locator('button', { hasText: 'Collect all' })
			// The start request never reaches the server.
			await page.route('**/api/jobs', (route) =>
				route.request().method() === 'POST' ? route.abort('connectionrefused') : route.fallback()
			)
			try {
				await collect.focus()
				await page.keyboard.press('Enter')
				await page.locator('.toast', { hasText: 'Could not start the job' }).waitFor()
				expect(await collect.getAttribute('aria-disabled')).toBe('false')
				expect(await collect.evaluate((button: HTMLButtonElement) => button.disabled)).toBe(false)
				expect(await focusIsOn(page, 'main .result button')).toBe(true)
				expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Collect all')
			} finally {
				await page.unroute('**/api/jobs')
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'a started job opens the Jobs panel with its card focused',
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'friendships/followers')
			const result = await runAction(page, 'followers')
			await result.locator('button', { hasText: 'Collect all' }).focus()
			await page.keyboard.press('Enter')
			const toast = page.locator('.toast', { hasText: /^Job \d+ started: followers/ }).last()
			await toast.waitFor()
			const id = /^Job (\d+)/.exec((await toast.textContent()) ?? '')?.[1]
			await page.locator('main .panel-title', { hasText: 'Jobs' }).waitFor()
			await page.waitForFunction(
				(wanted) => document.activeElement?.matches(`main article.job[data-job="${wanted}"]`) ?? false,
				id,
				{ timeout: 10_000 }
			)
			expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Job ${id}`)
			// Asked once: opening Jobs again later leaves the focus on the heading.
			await page.locator(`main article.job[data-job="${id}"][data-status="done"]`).waitFor()
			await page.locator('a.nav-link', { hasText: 'History' }).click()
			await page.locator('a.nav-link', { hasText: 'Jobs' }).click()
			await page.locator('main .panel-title', { hasText: 'Jobs' }).waitFor()
			await page.waitForTimeout(500)
			expect(await focusIsOn(page, 'main h1.panel-title')).toBe(true)
		},
		BROWSER_TIMEOUT
	)
})

describe('contrast (WCAG, 4.5:1 for small text)', () => {
	/** An analytics answer whose heat map holds every share of the busiest hour, 1/167 to 167/167. */
	const figures = {
		username: 'heat.test',
		full_name: 'Heat Test',
		follower_count: 100,
		posts_analyzed: 10,
		avg_likes: 1,
		avg_comments: 1,
		engagement_rate: 1,
		posts_per_week: 1,
		heatmap: Array.from({ length: 7 }, (_, day) => Array.from({ length: 24 }, (_, hour) => day * 24 + hour)),
		top_posts: [],
		top_hashtags: [],
		top_mentions: [],
		media_mix: { photo: 6, video: 4 }
	}

	test(
		'every number of the Analytics heat map, in the light and the dark theme; "Media mix" is said once',
		async () => {
			const page = ui.page
			await page.route('**/api/analytics/profile/**', (route) =>
				route.fulfill({
					contentType: 'application/json',
					body: JSON.stringify({ success: true, data: figures })
				})
			)
			try {
				for (const colorScheme of ['light', 'dark'] as const) {
					await page.emulateMedia({ colorScheme })
					await openPanel(page, ui.playground, 'analytics')
					await page.locator('main input[name="username"]').fill('heat.test')
					await page.locator('main form button[type=submit]').click()
					await page.locator('main .heatmap td.heat-on').first().waitFor()
					const cells = await contrastsOf(page, 'main .heatmap td.heat-on')
					expect(cells).toHaveLength(167)
					const low = cells.filter((cell) => cell.ratio < 4.5)
					expect({ colorScheme, low }).toEqual({ colorScheme, low: [] })
					const said = await page
						.locator('main .analytics-result')
						.evaluate((area) => area.textContent?.match(/Media mix/g)?.length ?? 0)
					expect(said).toBe(1)
					// The bars keep their name for assistive technology.
					expect(await page.locator('main figure[aria-label="Media mix"] [role=meter]').count()).toBe(2)
				}
			} finally {
				await page.unroute('**/api/analytics/profile/**')
				await page.emulateMedia({ colorScheme: 'light' })
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'the green "done"/success tag and the session badge, in the light and the dark theme',
		async () => {
			const page = ui.page
			try {
				for (const colorScheme of ['light', 'dark'] as const) {
					await page.emulateMedia({ colorScheme })
					await openPanel(page, ui.playground, 'history')
					await page.locator('main .history-table .tag-success').first().waitFor()
					await page.locator('#badges .badge-ok').waitFor()
					const tags = await contrastsOf(page, 'main .tag-success, #badges .badge-ok')
					expect(tags.length).toBeGreaterThan(1)
					const low = tags.filter((tag) => tag.ratio < 4.5)
					expect({ colorScheme, low }).toEqual({ colorScheme, low: [] })
				}
			} finally {
				await page.emulateMedia({ colorScheme: 'light' })
			}
		},
		BROWSER_TIMEOUT
	)
})

describe('History on a phone', () => {
	test(
		'a long message (a 404 naming a 100-letter hashtag) wraps inside its card',
		async () => {
			const page = ui.page
			await page.setViewportSize({ width: 390, height: 844 })
			try {
				await openPanel(page, ui.playground, 'history')
				const tag = 'longtag'.repeat(15).slice(0, 100)
				await page.evaluate(
					(path) => fetch(path).then((answer) => answer.status),
					`/api/hashtags/info/${tag}`
				)
				const row = page.locator('main .history-table tbody tr', { hasText: tag }).first()
				await row.waitFor()
				const sizes = await row.evaluate((tr) => {
					const message = tr.querySelector('.history-message') as HTMLElement
					const card = tr.getBoundingClientRect()
					return {
						rowScroll: tr.scrollWidth,
						rowWidth: tr.clientWidth,
						messageRight: message.getBoundingClientRect().right,
						cardRight: card.right,
						pageScroll: document.documentElement.scrollWidth
					}
				})
				expect(sizes.rowScroll).toBeLessThanOrEqual(sizes.rowWidth + 1)
				expect(sizes.messageRight).toBeLessThanOrEqual(sizes.cardRight + 1)
				expect(sizes.pageScroll).toBeLessThanOrEqual(390)
			} finally {
				await page.setViewportSize({ width: 1280, height: 900 })
			}
		},
		BROWSER_TIMEOUT
	)
})

describe('the server gone', () => {
	test(
		'the first request that cannot reach it shows the banner and an unknown session at once; its return restores both',
		async () => {
			const page = ui.page
			// A fresh page: its next status poll is 15 s away.
			await openPanel(page, ui.playground, 'history')
			const banner = page.locator('#banner')
			const session = page.locator('#badges .badge-session')
			await page.locator('#badges .badge-session[data-session="valid"]').waitFor()
			expect(await banner.isHidden()).toBe(true)
			await page.route('**/api/**', (route) => route.abort('connectionrefused'))
			try {
				// History asks every 2 seconds: its first failed request shows the banner.
				await banner.filter({ hasText: 'Cannot reach the playground API' }).waitFor({ timeout: 6000 })
				expect(await session.getAttribute('data-session')).toBe('unknown')
				expect(await session.textContent()).toBe('Session unknown')
				expect(await page.locator('#badges .badge-ok').count()).toBe(0)
			} finally {
				await page.unroute('**/api/**')
			}
			await page.locator('#badges .badge-session[data-session="valid"]').waitFor({ timeout: 10_000 })
			await banner.waitFor({ state: 'hidden' })
			expect(await session.textContent()).toBe('@smkit_demo')
		},
		BROWSER_TIMEOUT
	)
})

describe('live regions', () => {
	test(
		'Jobs and Watch lists are no live regions; each panel has one status line',
		async () => {
			const page = ui.page
			for (const panel of ['jobs', 'watch']) {
				await openPanel(page, ui.playground, panel)
				const live = await page.evaluate(() =>
					[
						...document.querySelectorAll(
							'main .jobs-list, main .watch-list, main .watch-detail, main .watch-diff'
						)
					]
						.filter((element) => element.closest('[aria-live], [role=status], [role=alert], [role=log]'))
						.map((element) => element.className)
				)
				expect(live).toEqual([])
				expect(await page.locator('main .visually-hidden[role=status]').count()).toBe(1)
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		"a job's buttons stay on the page while its pages arrive (a CSV click lands); its status line says when it is done",
		async () => {
			const page = ui.page
			ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 250, pathPattern: 'followers' })
			try {
				await openPanel(page, ui.playground, 'jobs')
				await page.locator('#job-kind').selectOption('followers')
				await page.locator('#job-target').fill(DEMO_PRESETS.mega.username)
				await page.locator('#job-limit').fill('')
				await page.locator('main form button[type=submit]').click()
				const card = page
					.locator('main article.job', { hasText: `followers · ${DEMO_PRESETS.mega.username}` })
					.first()
				await card.locator('button[data-act="csv"]:not(:disabled)').waitFor()
				const id = (await card.getAttribute('data-job')) as string
				// Every time the card's button row is drawn from here on (one record adds its buttons).
				await card.evaluate((article) => {
					const changes = { count: 0 }
					;(window as unknown as { buttonRowChanges: typeof changes }).buttonRowChanges = changes
					new MutationObserver((mutations) => {
						changes.count += mutations.filter((mutation) => mutation.addedNodes.length > 0).length
					}).observe(article.querySelector('.row-actions') as Node, { childList: true })
				})
				const csv = await card.locator('button[data-act="csv"]').elementHandle()
				const pagesNow = Number(await card.getAttribute('data-pages'))
				await page.waitForFunction(
					([job, pages]) =>
						Number(document.querySelector<HTMLElement>(`article.job[data-job="${job}"]`)?.dataset.pages) >=
						Number(pages) + 3,
					[id, String(pagesNow)] as const
				)
				expect(await card.getAttribute('data-status')).toBe('running')
				expect(await csv?.evaluate((button) => button.isConnected)).toBe(true)
				const [download] = await Promise.all([page.waitForEvent('download'), csv?.click()])
				expect(download.suggestedFilename()).toMatch(/\.csv$/)
				await page
					.locator(`main article.job[data-job="${id}"][data-status="done"]`)
					.waitFor({ timeout: 60_000 })
				// Pages changed only the figures: the row was drawn once, when Pause and Cancel went.
				const changes = await page.evaluate(
					() => (window as unknown as { buttonRowChanges: { count: number } }).buttonRowChanges.count
				)
				expect(changes).toBeLessThanOrEqual(2)
				expect(await csv?.evaluate((button) => button.isConnected)).toBe(true)
				await page
					.locator('main .visually-hidden[role=status]', { hasText: `Job ${id} done.` })
					.waitFor({ state: 'attached' })
			} finally {
				ui.playground.simulator.faults.clear()
			}
		},
		BROWSER_TIMEOUT
	)
	test(
		'a started job that fails says so on the status line, with what to do (its note is no live region)',
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'jobs')
			await page.locator('#job-kind').selectOption('followers')
			await page.locator('#job-target').fill(DEMO_PRESETS.missing.username)
			await page.locator('#job-limit').fill('')
			await page.locator('main form button[type=submit]').click()
			const card = page
				.locator('main article.job[data-status="failed"]', { hasText: DEMO_PRESETS.missing.username })
				.first()
			await card.waitFor()
			const id = await card.getAttribute('data-job')
			const line = page.locator('main .visually-hidden[role=status]')
			await line.filter({ hasText: `Job ${id} failed:` }).waitFor({ state: 'attached' })
			expect(await line.textContent()).toContain('Check the spelling of the target')
			expect(await card.locator('.job-note').getAttribute('role')).toBeNull()
		},
		BROWSER_TIMEOUT
	)
})

describe('small things', () => {
	test(
		'a Jobs target of only spaces is refused in the browser, as Analytics does',
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'jobs')
			const posts: string[] = []
			const onRequest = (request: { method(): string; url(): string }) => {
				if (request.method() === 'POST' && request.url().includes('/api/jobs')) posts.push(request.url())
			}
			page.on('request', onRequest)
			try {
				await page.locator('#job-kind').selectOption('tag')
				await page.locator('#job-target').fill('   ')
				await page.locator('main form button[type=submit]').click()
				await page.waitForTimeout(500)
				expect(
					await page.locator('#job-target').evaluate((input: HTMLInputElement) => input.validationMessage)
				).toBe('Enter a name, not only spaces.')
				expect(posts).toEqual([])
			} finally {
				page.off('request', onRequest)
				await page.locator('#job-target').fill('')
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'the delete dialog of a watch with one snapshot and its follower list says so in the singular',
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'watch')
			const target = DEMO_PRESETS.luna.username
			await page.locator('main input[name="target"]').fill(`@${target}`)
			await page.locator('#watch-followers').check()
			await page.locator('main form button[type=submit]').click()
			const row = page.locator('main .watch-table tbody tr', { hasText: `@${target}` })
			await row.filter({ hasText: '1 snapshot' }).waitFor({ timeout: 60_000 })
			await row.locator('button', { hasText: 'Delete' }).click()
			const dialog = page.locator('dialog.dialog[open]')
			await dialog.waitFor()
			const text = (await dialog.textContent()) ?? ''
			expect(text).toContain('Its 1 snapshot and its follower list are deleted too.')
			expect(text).not.toContain('their')
			await dialog.locator('button', { hasText: 'Cancel' }).click()
			await dialog.waitFor({ state: 'detached' })
		},
		BROWSER_TIMEOUT
	)

	test(
		"the column menu's boxes are named by the column's name and its key, apart",
		async () => {
			const page = ui.page
			await openPanel(page, ui.playground, 'feed/user')
			const result = await runAction(page, 'user')
			const menu = result.locator('.column-menu')
			await menu.locator('summary').click()
			const choices = await menu.locator('.column-choice').evaluateAll((labels) =>
				labels.map((label) => ({
					name: label.textContent?.replace(label.querySelector('.column-raw')?.textContent ?? '', '').trim(),
					key: label.querySelector('.column-raw')?.textContent ?? null
				}))
			)
			const renamed = choices.filter((choice) => choice.key !== null)
			expect(renamed.length).toBeGreaterThan(0)
			for (const { name, key } of renamed)
				expect(await menu.getByRole('checkbox', { name: `${name} (${key})`, exact: true }).count()).toBe(1)
			const plain = choices.find((choice) => choice.key === null)
			if (plain)
				expect(await menu.getByRole('checkbox', { name: plain.name as string, exact: true }).count()).toBe(1)
			await menu.locator('summary').click()
			expectCleanPage(ui)
		},
		BROWSER_TIMEOUT
	)
})
