/**
 * The workspace in Chromium against a demo playground: save then find, view and delete in Saved,
 * CSV download, History (polling and re-run), the Dashboard, and the page when not logged in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import {
	BROWSER_TIMEOUT,
	type DemoPlayground,
	expectCleanPage,
	openPanel,
	runAction,
	startDemoPlayground,
	useDemoBrowser,
	watchPage
} from '../support/browser'

const ui = useDemoBrowser({ acceptDownloads: true })

describe('save, saved, CSV', () => {
	test(
		'save a result under a name typed in the in-page dialog, then view and delete it in Saved',
		async () => {
			await openPanel(ui.page, ui.playground, 'public/profile')
			await runAction(ui.page, 'profile')
			await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
			const dialog = ui.page.locator('dialog.dialog[open]')
			await dialog.locator('input[name="name"]').fill('ui-test-luna')
			await dialog.locator('button[type=submit]').click()
			await ui.page.locator('.toast', { hasText: 'ui-test-luna' }).waitFor()

			await openPanel(ui.page, ui.playground, 'saved')
			const row = ui.page.locator('main .saved-table tbody tr', { hasText: 'ui-test-luna' })
			await row.waitFor()
			expect(await row.textContent()).toContain('GET /api/public/profile/luna.explorer')
			await row.locator('button', { hasText: 'View' }).click()
			await ui.page.locator('main .result .result-caption', { hasText: 'ui-test-luna' }).waitFor()
			expect(await ui.page.locator('main .result .summary-card').count()).toBe(0)
			expect(await ui.page.locator('main .result .json-tree').textContent()).toContain('luna.explorer')

			await row.locator('button', { hasText: 'Delete' }).click()
			const confirm = ui.page.locator('dialog.dialog[open]')
			expect(await confirm.textContent()).toContain('ui-test-luna')
			await confirm.locator('button', { hasText: 'Cancel' }).click()
			expect(await row.count()).toBe(1)
			await row.locator('button', { hasText: 'Delete' }).click()
			await ui.page.locator('dialog.dialog[open] button', { hasText: 'Delete' }).click()
			await ui.page.locator('.toast', { hasText: 'Deleted' }).waitFor()
			await row.waitFor({ state: 'detached' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'dialogs are named by their titles; deleting one saved file keeps the view of another open',
		async () => {
			await openPanel(ui.page, ui.playground, 'public/profile')
			await runAction(ui.page, 'profile')
			for (const name of ['ui-test-kept', 'ui-test-gone']) {
				await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
				const dialog = ui.page.getByRole('dialog', { name: 'Save result' })
				await dialog.locator('input[name="name"]').fill(name)
				await dialog.locator('button[type=submit]').click()
				await ui.page.locator('.toast', { hasText: name }).waitFor()
			}
			await openPanel(ui.page, ui.playground, 'saved')
			const row = (name: string) => ui.page.locator('main .saved-table tbody tr', { hasText: name })
			await row('ui-test-kept').locator('button', { hasText: 'View' }).click()
			const caption = ui.page.locator('main .result .result-caption', { hasText: 'ui-test-kept' })
			await caption.waitFor()
			await row('ui-test-gone').locator('button', { hasText: 'Delete' }).click()
			await ui.page
				.getByRole('dialog', { name: 'Delete saved result?' })
				.locator('button', { hasText: 'Delete' })
				.click()
			await row('ui-test-gone').waitFor({ state: 'detached' })
			expect(await caption.count()).toBe(1)
			await row('ui-test-kept').locator('button', { hasText: 'Delete' }).click()
			await ui.page.locator('dialog.dialog[open] button', { hasText: 'Delete' }).click()
			await row('ui-test-kept').waitFor({ state: 'detached' })
			expect(await caption.count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)

	test(
		'Save takes names in any script, as the server keeps them, and refuses one with no letter or digit',
		async () => {
			await openPanel(ui.page, ui.playground, 'public/profile')
			await runAction(ui.page, 'profile')
			const dialog = ui.page.getByRole('dialog', { name: 'Save result' })
			for (const [typed, kept] of [
				['путешествия 2024', 'путешествия_2024'],
				['旅行', '旅行'],
				['e\u0301te\u0301', 'été']
			]) {
				await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
				await dialog.locator('input[name="name"]').fill(typed)
				await dialog.locator('button[type=submit]').click()
				await ui.page.locator('.toast', { hasText: kept }).waitFor()
			}
			// Nothing a file could be named after: the dialog says so and sends nothing.
			await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
			await dialog.locator('input[name="name"]').fill('😀 !!')
			await dialog.locator('button[type=submit]').click()
			expect(
				await dialog
					.locator('input[name="name"]')
					.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)
			).toBe(true)
			await dialog.locator('button', { hasText: 'Cancel' }).click()
			await openPanel(ui.page, ui.playground, 'saved')
			for (const name of ['путешествия_2024', '旅行', 'été']) {
				const row = ui.page.locator('main .saved-table tbody tr', { hasText: `${name}.json` })
				await row.waitFor()
				await row.locator('button', { hasText: 'Delete' }).click()
				await ui.page.locator('dialog.dialog[open] button', { hasText: 'Delete' }).click()
				await row.waitFor({ state: 'detached' })
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'Save stores the result on screen even after requests from other panels',
		async () => {
			await openPanel(ui.page, ui.playground, 'hashtags/info')
			await runAction(ui.page, 'info')
			// The server saves its last data response; another panel's request comes in between.
			await openPanel(ui.page, ui.playground, 'media/info')
			await runAction(ui.page, 'info')
			await ui.page.locator('.nav-link', { hasText: 'Hashtags' }).click()
			await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
			await ui.page.locator('dialog.dialog[open] input[name="name"]').fill('ui-test-tag')
			await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
			await ui.page.locator('.toast', { hasText: 'ui-test-tag' }).waitFor()
			await openPanel(ui.page, ui.playground, 'saved')
			const row = ui.page.locator('main .saved-table tbody tr', { hasText: 'ui-test-tag' })
			await row.waitFor()
			expect(await row.locator('.saved-request').textContent()).toBe('GET /api/hashtags/info/sunset')
		},
		BROWSER_TIMEOUT
	)

	test(
		'CSV downloads the current records with the file name the server chose',
		async () => {
			await openPanel(ui.page, ui.playground, 'search/users')
			await ui.page.locator('main input[name="q"]').fill('luna')
			await runAction(ui.page, 'users')
			const downloading = ui.page.waitForEvent('download')
			await ui.page.locator('main .result-actions button', { hasText: 'CSV' }).click()
			const download = await downloading
			expect(download.suggestedFilename()).toMatch(/^users-luna-\d{8}-\d{6}\.csv$/)
			const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '')
			const header = text.split('\r\n')[0].split(',')
			expect(header).toContain('pk')
			expect(header).toContain('username')
			expect(text).toContain('luna.explorer')
		},
		BROWSER_TIMEOUT
	)
})

describe('history', () => {
	test(
		'lists the requests just made, newest first, and refreshes while open',
		async () => {
			await openPanel(ui.page, ui.playground, 'history')
			const paths = ui.page.locator('main .history-table tbody tr .history-path')
			await paths.first().waitFor()
			// Newest first: the CSV export, then the search it exported.
			const all = await paths.allTextContents()
			expect(all.slice(0, 2)).toEqual(['/api/export/csv', '/api/search/users?q=luna'])
			expect(all).toContain('/api/public/profile/luna.explorer')
			expect(all).toContain('/api/hashtags/info/sunset')
			// A request made elsewhere shows up without touching the page (polling).
			const made = await ui.page.evaluate(() =>
				fetch('/api/hashtags/info/coffee').then((response) => response.status)
			)
			expect(made).toBe(200)
			await ui.page
				.locator('main .history-table tbody tr:first-child .history-path', {
					hasText: '/api/hashtags/info/coffee'
				})
				.waitFor()
		},
		BROWSER_TIMEOUT
	)

	test(
		're-run opens the panel with the same values and runs it',
		async () => {
			// A query that needs encoding comes back decoded in the form.
			const made = await ui.page.evaluate(() =>
				fetch('/api/search/users?q=a%26b+c%23d').then((response) => response.status)
			)
			expect(made).toBe(200)
			const row = ui.page.locator('main .history-table tbody tr', {
				hasText: '/api/search/users?q=a%26b+c%23d'
			})
			await row.locator('button', { hasText: 'Re-run' }).click()
			await expect(ui.page.locator('main .panel-title').textContent()).resolves.toBe('Search')
			expect(await ui.page.locator('main input[name="q"]').inputValue()).toBe('a&b c#d')
			await ui.page.locator('main .result[aria-busy="false"] .result-status').waitFor()
			expect(ui.page.url()).toEndWith('#search/users')
		},
		BROWSER_TIMEOUT
	)

	test(
		're-run sends the same request: a count the request did not send is not taken from the form',
		async () => {
			await openPanel(ui.page, ui.playground, 'feed/user')
			await ui.page.locator('main input[name="count"]').fill('3')
			// A client other than this page asked without a count (the API's default, 12).
			const made = await ui.page.evaluate(() =>
				fetch('/api/feed/user/1000000002').then((response) => response.status)
			)
			expect(made).toBe(200)
			await openPanel(ui.page, ui.playground, 'history')
			const row = ui.page.locator('main .history-table tbody tr', {
				has: ui.page.locator('.history-path', { hasText: /^\/api\/feed\/user\/1000000002$/ })
			})
			await row.first().locator('button', { hasText: 'Re-run' }).click()
			await ui.page.locator('main .panel-title', { hasText: 'Feed' }).waitFor()
			const status = ui.page.locator('main .result[aria-busy="false"] .result-status')
			await status.waitFor()
			expect(await status.locator('.result-caption').textContent()).toBe('GET /api/feed/user/1000000002')
			expect(await status.locator('.result-count').textContent()).toBe('12 items')
		},
		BROWSER_TIMEOUT
	)
})

describe('dashboard', () => {
	test(
		'shows status figures and charts',
		async () => {
			await openPanel(ui.page, ui.playground, 'dashboard')
			await ui.page.locator('main .stat-grid').waitFor()
			expect(await ui.page.locator('main .stat-card', { hasText: 'Session' }).textContent()).toContain(
				'Demo datayes'
			)
			expect(await ui.page.locator('main .chart-figure figcaption').allTextContents()).toEqual([
				'Instagram requests per minute',
				'Average latency per endpoint',
				'Rate-limit budget left (speed: unlimited)'
			])
			// The client counted the upstream requests this file made, per endpoint.
			expect(
				Number(
					await ui.page
						.locator('main .stat-card', { hasText: 'Instagram client' })
						.locator('dd')
						.first()
						.textContent()
				)
			).toBeGreaterThan(5)
			expect(await ui.page.locator('main .data-table tbody tr').count()).toBeGreaterThan(3)
			expect(
				await ui.page
					.locator('main .chart-figure', { hasText: 'Average latency' })
					.locator('[role=meter]')
					.count()
			).toBeGreaterThan(3)
			// The server's per-minute counts are there from the first look.
			expect(await ui.page.locator('main svg.chart rect.chart-bar').count()).toBeGreaterThan(0)
		},
		BROWSER_TIMEOUT
	)
})

describe('not logged in', () => {
	let loggedOut: DemoPlayground

	beforeAll(async () => {
		loggedOut = await startDemoPlayground({ loggedOut: true })
	}, BROWSER_TIMEOUT)
	afterAll(async () => {
		await loggedOut?.stop()
	})

	test(
		'a banner says so, logged-in endpoints show login_required, Public still works',
		async () => {
			const other = await ui.context.newPage()
			const otherWatch = watchPage(other)
			await other.goto(`${loggedOut.url}#account`)
			const banner = other.locator('#banner')
			await banner.waitFor()
			expect(await banner.textContent()).toContain('Not logged in')
			expect(await other.locator('.badge', { hasText: 'Not logged in' }).count()).toBe(1)
			expect(await other.locator('main .login-note').isVisible()).toBe(true)
			const account = await runAction(other, 'me')
			expect(await account.locator('.error-box .tag-error').textContent()).toBe('login_required')
			expect(await account.locator('.result-status .tag').textContent()).toBe('401')
			await other.goto(`${loggedOut.url}#public`)
			expect(await other.locator('main .login-note').isVisible()).toBe(false)
			const profile = await runAction(other, 'profile')
			expect(await profile.locator('.summary-card .card-subtitle').textContent()).toContain('@luna.explorer')
			expect(otherWatch.errors).toEqual([])
			await other.close()
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
