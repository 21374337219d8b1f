/**
 * CSV downloads in Chromium against a demo playground: file names say what they hold (a list, a
 * single record, a saved file), and a single record is one row with dotted columns.
 */
import { describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

/** Clicks CSV and returns the download's file name and its rows. */
async function downloadCsv(): Promise<{ name: string; rows: string[][] }> {
	const downloading = ui.page.waitForEvent('download')
	await ui.page.locator('main .result-actions button', { hasText: 'CSV' }).click()
	const download = await downloading
	const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '')
	return { name: download.suggestedFilename(), rows: Papa.parse<string[]>(text, { newline: '\r\n' }).data }
}

describe('CSV downloads', () => {
	test(
		"luna.explorer's followers: followers-luna.explorer-DATE-TIME.csv",
		async () => {
			await openPanel(ui.page, ui.playground, 'friendships/followers')
			await runAction(ui.page, 'followers')
			const { name, rows } = await downloadCsv()
			expect(name).toMatch(/^followers-luna\.explorer-\d{8}-\d{6}\.csv$/)
			expect(rows).toHaveLength(51)
		},
		BROWSER_TIMEOUT
	)

	test(
		'after a header is pressed the file has the rows in the order the table shows',
		async () => {
			const usernames = (rows: string[][]): string[] =>
				rows.slice(1, 51).map((row) => row[rows[0].indexOf('username')])
			const before = usernames((await downloadCsv()).rows)
			const sorted = [...before].sort((left, right) =>
				left.localeCompare(right, undefined, { numeric: true })
			)
			// The data's own order is not already sorted, or this test could not fail.
			expect(before).not.toEqual(sorted)
			await ui.page.locator('main .data-table th[data-column="username"] button').click()
			const shown = await ui.page.locator('main .data-table tbody td[data-label="username"]').allInnerTexts()
			const ascending = usernames((await downloadCsv()).rows)
			expect(ascending).toEqual(sorted)
			expect(ascending).toEqual(shown.map((text) => text.trim()))
			await ui.page.locator('main .data-table th[data-column="username"] button').click()
			expect(usernames((await downloadCsv()).rows)).toEqual([...sorted].reverse())
		},
		BROWSER_TIMEOUT
	)

	test(
		'a single post is one row with dotted columns, named after its code',
		async () => {
			await openPanel(ui.page, ui.playground, 'media/info')
			await runAction(ui.page, 'info')
			const { name, rows } = await downloadCsv()
			expect(name).toMatch(/^media-info-DVUVYxwAOOz-\d{8}-\d{6}\.csv$/)
			expect(rows).toHaveLength(2)
			expect(rows[1][rows[0].indexOf('user.username')]).toBe('luna.explorer')
			expect(rows[1][rows[0].indexOf('code')]).toBe('DVUVYxwAOOz')
		},
		BROWSER_TIMEOUT
	)

	test(
		"a saved file's CSV is named after the saved file",
		async () => {
			await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
			await ui.page.locator('dialog.dialog[open] input[name="name"]').fill('golden-hour')
			await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
			await ui.page.locator('.toast', { hasText: 'golden-hour' }).waitFor()
			await openPanel(ui.page, ui.playground, 'saved')
			await ui.page
				.locator('main .saved-table tbody tr', { hasText: 'golden-hour' })
				.locator('button', { hasText: 'View' })
				.click()
			await ui.page.locator('main .result .result-caption', { hasText: 'Saved: golden-hour' }).waitFor()
			const { name, rows } = await downloadCsv()
			expect(name).toMatch(/^golden-hour-\d{8}-\d{6}\.csv$/)
			expect(rows).toHaveLength(2)
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
