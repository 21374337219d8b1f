/**
 * The Watch diff's "Export lost/gained to CSV" in Chromium: after a header of its table is pressed,
 * the file holds the rows in the order the table shows them (as the result view's CSV does).
 */
import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import { BROWSER_TIMEOUT, expectCleanPage, useDemoBrowser } from '../support/browser'

// The playground moves the simulator's clock ("Advance demo time by a day").
const ui = useDemoBrowser({}, { playground: { demoClock: true } })

/** Presses the list's CSV button; the usernames of the file, in its order. */
async function csvUsernames(list: string): Promise<string[]> {
	const [download] = await Promise.all([
		ui.page.waitForEvent('download'),
		ui.page.locator(`main [data-list="${list}"] button`, { hasText: 'to CSV' }).click()
	])
	const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '')
	const rows = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true }).data
	const column = rows[0].indexOf('username')
	expect(column).toBeGreaterThanOrEqual(0)
	return rows.slice(1).map((row) => row[column])
}

/** The usernames the list's table shows, top to bottom. */
async function tableUsernames(list: string): Promise<string[]> {
	const table = ui.page.locator(`main [data-list="${list}"] table`)
	const headers = await table
		.locator('thead th')
		.evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).dataset.column ?? ''))
	const column = headers.indexOf('username')
	expect(column).toBeGreaterThanOrEqual(0)
	return table
		.locator('tbody tr')
		.evaluateAll(
			(rows, at) => rows.map((row) => ((row as HTMLTableRowElement).cells[at]?.textContent ?? '').trim()),
			column
		)
}

test(
	'after the username header is pressed, lost and gained export in the order the table shows',
	async () => {
		await ui.page.goto(`${ui.playground.origin}/#watch`)
		await ui.page.locator('main .panel-title').waitFor()
		await ui.page.locator('main input[name="target"]').fill('luna.explorer')
		await ui.page.locator('main form button[type=submit]').click()
		await ui.page.locator('main .watch-table', { hasText: '1 snapshot' }).waitFor()
		await ui.page.locator('main button', { hasText: 'Advance demo time by a day' }).click()
		await ui.page.locator('.toast', { hasText: 'Demo time is now' }).waitFor()
		await ui.page.locator('main button', { hasText: 'Run now' }).click()
		await ui.page.locator('main .watch-table', { hasText: '2 snapshots' }).waitFor()
		await ui.page.locator('main .watch-users').first().waitFor()
		const [watch] = await (await fetch(`${ui.playground.origin}/api/watches`))
			.json()
			.then((answer) => answer.data)
		const diff = (await (await fetch(`${ui.playground.origin}/api/watches/${watch.id}/diff`)).json()).data
		const lists = (['lost', 'gained'] as const).filter((list) => diff[list].length >= 2)
		// At least one list long enough for an order to matter.
		expect(lists.length).toBeGreaterThan(0)
		for (const list of lists) {
			const data = diff[list].map((user: { username: string }) => user.username) as string[]
			const header = ui.page.locator(`main [data-list="${list}"] th[data-column="username"] button`)
			// Ascending, then descending: at least one of them differs from the order of the data.
			const seen: string[][] = []
			for (const direction of ['ascending', 'descending']) {
				await header.click()
				await ui.page
					.locator(`main [data-list="${list}"] th[data-column="username"][aria-sort="${direction}"]`)
					.waitFor()
				const shown = await tableUsernames(list)
				expect([...shown].sort()).toEqual([...data].sort())
				expect(await csvUsernames(list)).toEqual(shown)
				seen.push(shown)
			}
			expect(seen.some((shown) => shown.join('\n') !== data.join('\n'))).toBe(true)
		}
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)
