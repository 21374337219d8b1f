/**
 * Save after "Load more" once the server no longer holds the list on screen, in Chromium against a
 * demo playground: other lists pushed it out of those the server joins pages to, or other requests
 * pushed its history ids out. Save fetches the list again from its first page and writes every
 * record shown, each once, under the list's first request, and its toast says the list was fetched
 * again; never only the last page.
 */
import { describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

const FIRST_REQUEST = 'GET /api/friendships/followers/1000000005?count=50'

/** Runs Followers of pk 1000000005 (50 a page) and presses Load more until `total` records are shown. */
async function followersUpTo(total: number): Promise<void> {
	await openPanel(ui.page, ui.playground, 'friendships/followers')
	await ui.page.locator('main .action-form input[name="user_pk"]').fill('1000000005')
	await runAction(ui.page, 'followers')
	await ui.page.locator('main .result-count', { hasText: '50 items' }).waitFor()
	for (let shown = 100; shown <= total; shown += 50) {
		await ui.page.locator('main .load-more button').click()
		await ui.page.locator('main .result-count', { hasText: `${shown} items` }).waitFor()
	}
}

/** Requests from another client: `lists` paginated lists (each one the server may continue), then `others`. */
async function otherTraffic(lists: number, others = 0): Promise<void> {
	for (let count = 1; count <= lists; count++) {
		const response = await fetch(`${ui.playground.origin}/api/feed/user/1000000002?count=${count}`)
		expect(response.status).toBe(200)
	}
	for (let request = 0; request < others; request++) {
		expect((await fetch(`${ui.playground.origin}/api/lists`)).status).toBe(200)
	}
}

/** Saves the result on screen under `name`; the toast's text and the saved file. */
async function saveAs(name: string) {
	await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
	await ui.page.locator('dialog.dialog[open] input[name="name"]').fill(name)
	await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
	const toast = ui.page.locator('.toast', { hasText: name })
	await toast.waitFor()
	const file = JSON.parse(await readFile(join(ui.playground.savedDir, `${name}.json`), 'utf8'))
	return {
		toast: (await toast.textContent()) ?? '',
		file: file as { request: string; result: { data: { pk: string }[] } }
	}
}

/** The saved records' pks, checked to be the list from its first request, `total` of them, each once. */
function expectWholeList(file: { request: string; result: { data: { pk: string }[] } }, total: number): void {
	expect(file.request).toBe(FIRST_REQUEST)
	const pks = file.result.data.map((record) => record.pk)
	expect(pks).toHaveLength(total)
	expect(new Set(pks).size).toBe(total)
}

describe('Save after Load more, once the server no longer holds the list', () => {
	test(
		'eight other lists between two Load mores: the file holds all 150 records shown',
		async () => {
			await followersUpTo(100)
			await otherTraffic(8)
			await ui.page.locator('main .load-more button').click()
			await ui.page.locator('main .result-count', { hasText: '150 items' }).waitFor()
			const { toast, file } = await saveAs('followers-after-8-lists')
			expectWholeList(file, 150)
			expect(toast).toContain('fetched the list again')
			expect(toast).toContain('150 records')
		},
		BROWSER_TIMEOUT
	)

	test(
		'fifty other requests after the last Load more (its history id expired): the file holds all 200',
		async () => {
			await followersUpTo(200)
			await otherTraffic(9, 45)
			const { toast, file } = await saveAs('followers-after-traffic')
			expectWholeList(file, 200)
			expect(toast).toContain('fetched the list again')
			expect(toast).toContain('200 records')
		},
		BROWSER_TIMEOUT
	)

	test(
		'with the list still held, Save writes it by its history id without fetching it again',
		async () => {
			await followersUpTo(100)
			const { toast, file } = await saveAs('followers-held')
			expectWholeList(file, 100)
			expect(toast).not.toContain('fetched the list again')
			expect(toast).toContain('100 records')
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
