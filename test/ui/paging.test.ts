/**
 * Paged results in Chromium against a demo playground: Save after "Load more" writes every record on
 * screen (also when other panels made requests in between), and History's Re-run of a later page
 * runs it with its cursor, showing that page rather than the first.
 */
import { describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

/** The `pk` column of the result table, top to bottom (switched on in the Columns menu if hidden). */
async function shownPks(): Promise<string[]> {
	let headers = await ui.page.locator('main .result .data-table thead th').allTextContents()
	if (!headers.some((header) => header.trim() === 'pk')) {
		await ui.page.locator('main .result .column-menu summary').click()
		await ui.page.locator('main .result .column-menu input[value="pk"]').check()
		await ui.page.locator('main .result .column-menu summary').click()
		headers = await ui.page.locator('main .result .data-table thead th').allTextContents()
	}
	const column = headers.findIndex((header) => header.trim() === 'pk') + 1
	expect(column).toBeGreaterThan(0)
	return ui.page.locator(`main .result .data-table tbody tr td:nth-child(${column})`).allTextContents()
}

/** Saves the result on screen under `name` and returns the saved file's content. */
async function saveAs(name: string): Promise<{ request: string; result: { data: { pk: string }[] } }> {
	await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
	await ui.page.locator('dialog.dialog[open] input[name="name"]').fill(name)
	await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
	await ui.page.locator('.toast', { hasText: name }).waitFor()
	return JSON.parse(await readFile(join(ui.playground.savedDir, `${name}.json`), 'utf8'))
}

let loaded: string[] = []

describe('paged results', () => {
	test(
		'Save after Load more saves every record on screen, not only the last page',
		async () => {
			await openPanel(ui.page, ui.playground, 'feed/user')
			await runAction(ui.page, 'user')
			for (const total of [24, 36, 48]) {
				await ui.page.locator('main .load-more button').click()
				await ui.page.locator('main .result-count', { hasText: `${total} items` }).waitFor()
			}
			loaded = await shownPks()
			expect(loaded).toHaveLength(48)
			expect(new Set(loaded).size).toBe(48)

			const file = await saveAs('ui-feed-48')
			expect(file.request).toBe('GET /api/feed/user/1000000002?count=12')
			expect(file.result.data.map((record) => record.pk)).toEqual(loaded)

			// Another panel's request comes in between: Save still writes the 48 records on screen.
			await openPanel(ui.page, ui.playground, 'hashtags/info')
			await runAction(ui.page, 'info')
			await ui.page.locator('.nav-link', { hasText: 'Feed' }).click()
			await ui.page.locator('main .result-count', { hasText: '48 items' }).waitFor()
			const again = await saveAs('ui-feed-48-again')
			expect(again.result.data.map((record) => record.pk)).toEqual(loaded)
		},
		BROWSER_TIMEOUT
	)

	test(
		'Save writes the result on screen by its history id, whatever another client asked for since',
		async () => {
			await openPanel(ui.page, ui.playground, 'feed/user')
			await runAction(ui.page, 'user')
			const shown = await shownPks()
			// Another client (or a page elsewhere) makes the server's last result something else.
			expect((await fetch(`${ui.playground.origin}/api/hashtags/info/sunset`)).status).toBe(200)
			const feedRequests = async () => {
				const history = await (await fetch(`${ui.playground.origin}/api/history`)).json()
				return history.data.filter((entry: { path: string }) => entry.path.startsWith('/api/feed/user/'))
					.length
			}
			const before = await feedRequests()
			const file = await saveAs('ui-feed-by-id')
			expect(file.request).toMatch(/^GET \/api\/feed\/user\//)
			expect(file.result.data.map((record) => record.pk)).toEqual(shown)
			// Saved by id: the feed was not fetched again to make it the last result.
			expect(await feedRequests()).toBe(before)
		},
		BROWSER_TIMEOUT
	)

	test(
		"History's Re-run of a later page keeps the row's cursor",
		async () => {
			await openPanel(ui.page, ui.playground, 'history')
			// The third page of the feed: the request of the second "Load more".
			const rows = ui.page.locator('main .history-table tbody tr', { hasText: '/api/feed/user/1000000002?' })
			await rows.first().waitFor()
			const paths = await rows.locator('.history-path').allTextContents()
			const pagePaths = paths.filter((path) => path.includes('cursor='))
			expect(pagePaths.length).toBeGreaterThanOrEqual(3)
			const third = pagePaths.at(-2) as string
			await ui.page
				.locator('main .history-table tbody tr', { hasText: third })
				.first()
				.locator('button', { hasText: 'Re-run' })
				.click()
			await expect(ui.page.locator('main .panel-title').textContent()).resolves.toBe('Feed')
			await ui.page
				.locator('main .result[aria-busy="false"] .result-caption', { hasText: 'cursor=' })
				.waitFor()
			expect(await ui.page.locator('main .result-caption').textContent()).toBe(`GET ${third}`)
			expect(await shownPks()).toEqual(loaded.slice(24, 36))
			// "Load more" goes on from there.
			await ui.page.locator('main .load-more button').click()
			await ui.page.locator('main .result-count', { hasText: '24 items' }).waitFor()
			expect(await shownPks()).toEqual(loaded.slice(24, 48))
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
