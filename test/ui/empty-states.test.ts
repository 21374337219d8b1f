/**
 * Empty and edge states in Chromium against a demo playground: a search without results says so in
 * a sentence with Save and CSV disabled, one result is "1 item", Saved with nothing saved shows one
 * empty state, a username of only spaces is refused in the form with the API's own message, and
 * summary cards appear only for records that have what they show. A list that cannot be loaded
 * (History, Saved, Jobs) shows the API's code and message in the one error box every panel uses.
 */
import { describe, expect, test } from 'bun:test'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

const result = () => ui.page.locator('main .result')

describe('empty and edge states', () => {
	test(
		'History, Saved and Jobs that cannot load their list show the code and message in an error box',
		async () => {
			const lists = [
				{ panel: 'history', path: '/api/history', message: 'History is resting.' },
				{ panel: 'saved', path: '/api/saved', message: 'The saved folder is not readable.' },
				{ panel: 'jobs', path: '/api/jobs', message: 'Could not list the jobs: the store is locked.' }
			]
			for (const { panel, path, message } of lists) {
				const failure = message.replace('Could not list the jobs: ', '')
				await ui.page.route(`**${path}`, (route) =>
					route.fulfill({
						status: 503,
						json: { success: false, error: failure, code: 'service_unavailable', timestamp: 0 }
					})
				)
				await openPanel(ui.page, ui.playground, panel)
				const box = ui.page.locator('main .error-box[role=alert]')
				await box.waitFor()
				expect(await box.locator('.tag-error').textContent()).toBe('service_unavailable')
				expect(await box.locator('.error-text').textContent()).toBe(message)
				await ui.page.unroute(`**${path}`)
			}
			expect(ui.watch.errors).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	test(
		'Saved with nothing saved shows one empty state',
		async () => {
			await openPanel(ui.page, ui.playground, 'saved')
			await ui.page.locator('main .saved-list .result-empty').waitFor()
			const shown = await ui.page
				.locator('main .result-empty')
				.evaluateAll((nodes) =>
					nodes.filter((node) => (node as HTMLElement).offsetParent !== null).map((node) => node.textContent)
				)
			expect(shown).toEqual(['Nothing saved yet. Run a request in any data panel and press Save.'])
		},
		BROWSER_TIMEOUT
	)

	test(
		'a search without results: "No accounts match \'zzz\'", no tree, Save and CSV disabled',
		async () => {
			await openPanel(ui.page, ui.playground, 'search/users')
			await ui.page.locator('main input[name="q"]').fill('zzz')
			await runAction(ui.page, 'users')
			expect(await result().locator('.result-none').textContent()).toBe("No accounts match 'zzz'.")
			expect(await result().locator('.result-count').textContent()).toBe('0 items')
			expect(await result().locator('.json-tree, [role=tab], .data-table').count()).toBe(0)
			for (const name of ['Save', 'CSV'])
				expect(await result().locator('.result-actions button', { hasText: name }).isDisabled()).toBe(true)
		},
		BROWSER_TIMEOUT
	)

	test(
		'one result is "1 item"',
		async () => {
			const answer = await (await fetch(`${ui.playground.origin}/api/search/users?q=luna`)).json()
			expect(answer.data).toHaveLength(1)
			await ui.page.locator('main input[name="q"]').fill('luna')
			await runAction(ui.page, 'users')
			await result()
				.locator('.result-count', { hasText: /^1 item$/ })
				.waitFor()
			expect(await result().locator('.result-actions button', { hasText: 'Save' }).isDisabled()).toBe(false)
			// The next empty search empties the view again.
			await ui.page.locator('main input[name="q"]').fill('qqqqqq')
			await runAction(ui.page, 'users')
			await result().locator('.result-none', { hasText: "No accounts match 'qqqqqq'." }).waitFor()
		},
		BROWSER_TIMEOUT
	)

	test(
		'a username of only spaces is refused in the form with the message the API gives',
		async () => {
			const api = await (
				await fetch(`${ui.playground.origin}/api/users/username/${encodeURIComponent('   ')}`)
			).json()
			expect(api.code).toBe('bad_request')
			await openPanel(ui.page, ui.playground, 'users/username')
			const sent: string[] = []
			ui.page.on('request', (request) => {
				if (request.url().includes('/api/users/')) sent.push(request.url())
			})
			const input = ui.page.locator('main input[name="username"]')
			await input.fill('   ')
			await ui.page.locator('main .action-form button[type=submit]').click()
			expect(await input.evaluate((element) => (element as HTMLInputElement).validationMessage)).toBe(
				api.error
			)
			expect(await input.evaluate((element) => element.matches(':invalid'))).toBe(true)
			// Typing a valid name clears the message and runs.
			await input.fill('luna.explorer')
			await runAction(ui.page, 'username')
			expect(await result().locator('.result-status .tag').first().textContent()).toBe('200 OK')
			expect(sent).toHaveLength(1)
			expect(sent[0]).toEndWith('/api/users/username/luna.explorer')
		},
		BROWSER_TIMEOUT
	)
	test(
		'summary cards only for records with a picture and counts; no dashes, no letter avatar',
		async () => {
			for (const [panel, action, path] of [
				['users', 'bio', 'GET /api/users/bio/'],
				['account', 'info', 'GET /api/account/info']
			]) {
				await openPanel(ui.page, ui.playground, panel)
				const shown = await runAction(ui.page, action)
				await shown.locator('.result-caption', { hasText: path }).waitFor()
				expect({ panel, cards: await shown.locator('.summary-card').count() }).toEqual({ panel, cards: 0 })
			}
			for (const [panel, action, path, labels] of [
				['users', 'username', 'GET /api/users/username/', ['posts', 'followers', 'following']],
				['media', 'info', 'GET /api/media/info/', ['likes', 'comments']]
			] as const) {
				await openPanel(ui.page, ui.playground, panel)
				const shown = await runAction(ui.page, action)
				await shown.locator('.result-caption', { hasText: path }).waitFor()
				const card = shown.locator('.summary-card')
				expect(await card.locator('.stat span').allTextContents()).toEqual([...labels])
				for (const value of await card.locator('.stat strong').allTextContents())
					expect(value).toMatch(/^[\d,]+$/)
				expect(await card.locator('img').count()).toBe(1)
			}
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
