/**
 * CSV downloads in Chromium against a demo playground: file names say what they hold (a list, a
 * single record, a saved file), and a single record is one row with dotted columns.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import type { Browser, Page } from 'playwright-core'
import {
	BROWSER_TIMEOUT,
	closeDemoBrowser,
	type DemoPlayground,
	expectCleanPage,
	type ForeignRequests,
	openDemoBrowser,
	openPanel,
	type PageWatch,
	runAction
} from '../support/browser'

let playground: DemoPlayground
let browser: Browser
let page: Page
let foreign: ForeignRequests
let watch: PageWatch

beforeAll(async () => {
	;({ playground, browser, page, foreign, watch } = await openDemoBrowser())
}, BROWSER_TIMEOUT)

afterAll(() => closeDemoBrowser({ browser, playground }), BROWSER_TIMEOUT)

/** Clicks CSV and returns the download's file name and its rows. */
async function downloadCsv(): Promise<{ name: string; rows: string[][] }> {
	const downloading = page.waitForEvent('download')
	await page.locator('main .result-actions button', { hasText: 'CSV' }).click()
	const download = await downloading
	const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '')
	return { name: download.suggestedFilename(), rows: Papa.parse<string[]>(text, { newline: '\r\n' }).data }
}

describe('CSV downloads', () => {
	test(
		"luna.explorer's followers: followers-luna.explorer-DATE-TIME.csv",
		async () => {
			await openPanel(page, playground, 'friendships/followers')
			await runAction(page, 'followers')
			const { name, rows } = await downloadCsv()
			expect(name).toMatch(/^followers-luna\.explorer-\d{8}-\d{6}\.csv$/)
			expect(rows).toHaveLength(51)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a single post is one row with dotted columns, named after its code',
		async () => {
			await openPanel(page, playground, 'media/info')
			await runAction(page, 'info')
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
			await page.locator('main .result-actions button', { hasText: 'Save' }).click()
			await page.locator('dialog.dialog[open] input[name="name"]').fill('golden-hour')
			await page.locator('dialog.dialog[open] button[type=submit]').click()
			await page.locator('.toast', { hasText: 'golden-hour' }).waitFor()
			await openPanel(page, playground, 'saved')
			await page
				.locator('main .saved-table tbody tr', { hasText: 'golden-hour' })
				.locator('button', { hasText: 'View' })
				.click()
			await page.locator('main .result .result-caption', { hasText: 'Saved: golden-hour' }).waitFor()
			const { name, rows } = await downloadCsv()
			expect(name).toMatch(/^golden-hour-\d{8}-\d{6}\.csv$/)
			expect(rows).toHaveLength(2)
		},
		BROWSER_TIMEOUT
	)
})

test(
	'no request left 127.0.0.1 and no script error happened',
	() => expectCleanPage({ foreign, watch }),
	BROWSER_TIMEOUT
)
