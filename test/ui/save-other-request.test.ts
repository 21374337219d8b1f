/**
 * Save names the request on screen: history ids start again at 1 when the playground restarts, so
 * the id a page kept may name another request's result by then. Chromium against a demo playground;
 * the collision is made by answering the page's profile request with the id of a hashtag request,
 * which is what a restart and one request from elsewhere give. The file holds what the page shows.
 */
import { describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

/** Opens the Save dialog and types `name`; the dialog's name input. */
async function typeName(name: string) {
	await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
	const input = ui.page.locator('dialog.dialog[open] input[name="name"]')
	await input.fill(name)
	return input
}

describe('Save of a result whose history id now names another request', () => {
	test(
		'the file holds the profile on screen, fetched again, not the hashtag the id names now',
		async () => {
			const other = await fetch(`${ui.playground.origin}/api/hashtags/info/sunset`)
			expect(other.status).toBe(200)
			const otherId = other.headers.get('x-smkit-history-id') as string
			// The page's profile answer carries the hashtag's id, as after a restart.
			let rewritten = 0
			await ui.page.route('**/api/users/username/**', async (route) => {
				const response = await route.fetch()
				const headers = { ...response.headers() }
				if (rewritten++ === 0) headers['x-smkit-history-id'] = otherId
				await route.fulfill({ response, headers })
			})
			await openPanel(ui.page, ui.playground, 'users/username')
			await ui.page.locator('main input[name="username"]').fill('luna.explorer')
			await runAction(ui.page, 'username')
			await ui.page.locator('main .result-caption', { hasText: 'luna.explorer' }).waitFor()
			await typeName('luna-profile')
			await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
			await ui.page.locator('.toast', { hasText: 'luna-profile' }).waitFor()
			const file = JSON.parse(await readFile(join(ui.playground.savedDir, 'luna-profile.json'), 'utf8'))
			expect(file.request).toBe('GET /api/users/username/luna.explorer')
			expect(file.result.data.username).toBe('luna.explorer')
			await ui.page.unroute('**/api/users/username/**')
		},
		BROWSER_TIMEOUT
	)

	test(
		'a name with nothing before .json is refused in the dialog, not after fetching anything',
		async () => {
			for (const name of ['.json', '🌅.json', '  .JSON']) {
				const input = await typeName(name)
				expect(await input.evaluate((element) => element.matches(':invalid'))).toBe(true)
				await ui.page.keyboard.press('Escape')
			}
			const input = await typeName('été.json')
			expect(await input.evaluate((element) => element.matches(':invalid'))).toBe(false)
			await ui.page.keyboard.press('Escape')
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
