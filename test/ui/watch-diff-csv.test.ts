/**
 * The Watch diff's "Export lost/gained to CSV" in Chromium: after a header of its table is pressed,
 * the file holds the rows in the order the table shows them (as the result view's CSV does).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import type { Browser, Page } from 'playwright-core'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { createPlaygroundApp } from '../../src/playground/app'
import { uiPublicPaths } from '../../src/playground/ui'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	temporaryDirectory,
	watchPage
} from '../support/browser'

let simulator: Simulator
let server: ReturnType<typeof Bun.serve>
let browser: Browser
let page: Page
let origin: string
let foreign: ForeignRequests
let pageWatch: PageWatch
let saved: { path: string; remove(): Promise<void> }

beforeAll(async () => {
	// The playground moves the simulator's clock ("Advance demo time by a day"): a control token.
	;[simulator, browser, saved] = await Promise.all([
		startSimulator({ port: 0, host: '127.0.0.1', controlToken: true }),
		launchBrowser(),
		temporaryDirectory('smkit-ui-watch-csv-')
	])
	const app = createPlaygroundApp({
		ig: createDemoClient(simulator.url),
		demo: true,
		demoClock: simulatorClock(simulator.url, simulator.controlToken),
		savedDir: saved.path,
		log: () => {},
		security: { host: '127.0.0.1', publicPaths: uiPublicPaths() }
	})
	server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	origin = `http://127.0.0.1:${server.port}`
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
	foreign = await blockForeignRequests(context)
	page = await context.newPage()
	pageWatch = watchPage(page)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await simulator?.stop()
	await saved?.remove()
}, BROWSER_TIMEOUT)

/** Presses the list's CSV button; the usernames of the file, in its order. */
async function csvUsernames(list: string): Promise<string[]> {
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.locator(`main [data-list="${list}"] button`, { hasText: 'to CSV' }).click()
	])
	const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '')
	const rows = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true }).data
	const column = rows[0].indexOf('username')
	expect(column).toBeGreaterThanOrEqual(0)
	return rows.slice(1).map((row) => row[column])
}

/** The usernames the list's table shows, top to bottom. */
async function tableUsernames(list: string): Promise<string[]> {
	const table = page.locator(`main [data-list="${list}"] table`)
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
		await page.goto(`${origin}/#watch`)
		await page.locator('main .panel-title').waitFor()
		await page.locator('main input[name="target"]').fill('luna.explorer')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .watch-table', { hasText: '1 snapshot' }).waitFor()
		await page.locator('main button', { hasText: 'Advance demo time by a day' }).click()
		await page.locator('.toast', { hasText: 'Demo time is now' }).waitFor()
		await page.locator('main button', { hasText: 'Run now' }).click()
		await page.locator('main .watch-table', { hasText: '2 snapshots' }).waitFor()
		await page.locator('main .watch-users').first().waitFor()
		const [watch] = await (await fetch(`${origin}/api/watches`)).json().then((answer) => answer.data)
		const diff = (await (await fetch(`${origin}/api/watches/${watch.id}/diff`)).json()).data
		const lists = (['lost', 'gained'] as const).filter((list) => diff[list].length >= 2)
		// At least one list long enough for an order to matter.
		expect(lists.length).toBeGreaterThan(0)
		for (const list of lists) {
			const data = diff[list].map((user: { username: string }) => user.username) as string[]
			const header = page.locator(`main [data-list="${list}"] th[data-column="username"] button`)
			// Ascending, then descending: at least one of them differs from the order of the data.
			const seen: string[][] = []
			for (const direction of ['ascending', 'descending']) {
				await header.click()
				await page
					.locator(`main [data-list="${list}"] th[data-column="username"][aria-sort="${direction}"]`)
					.waitFor()
				const shown = await tableUsernames(list)
				expect([...shown].sort()).toEqual([...data].sort())
				expect(await csvUsernames(list)).toEqual(shown)
				seen.push(shown)
			}
			expect(seen.some((shown) => shown.join('\n') !== data.join('\n'))).toBe(true)
		}
		expect(foreign.urls).toEqual([])
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)
