/**
 * Result tables in Chromium against a demo playground: the columns of a record kind first and the
 * rest in the Columns menu, times as local dates with the raw value on hover, ids on one line,
 * cards on a phone, and a single object as field/value rows.
 */
import { describe, expect, test } from 'bun:test'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser()

const table = () => ui.page.locator('main .result .data-table')
const headers = async () => (await table().locator('thead th').allTextContents()).map((text) => text.trim())

/** The cells of the column headed `header`, top to bottom. */
async function columnCells(header: string) {
	const column = (await headers()).indexOf(header) + 1
	expect(column).toBeGreaterThan(0)
	return table().locator(`tbody tr td:nth-child(${column})`)
}

describe('result tables', () => {
	test(
		'the Columns menu by keyboard: Escape closes it onto its button, and tabbing out of it closes it',
		async () => {
			await openPanel(ui.page, ui.playground, 'feed/user')
			await runAction(ui.page, 'user')
			const menu = ui.page.locator('main .result .column-menu')
			const summary = menu.locator('summary')
			const isOpen = () => menu.evaluate((details) => (details as HTMLDetailsElement).open)
			await summary.focus()
			await ui.page.keyboard.press('Enter')
			expect(await isOpen()).toBe(true)
			await ui.page.keyboard.press('Tab')
			await ui.page.keyboard.press('Space')
			expect(await summary.textContent()).toMatch(/^Columns \(\d+ of \d+\)$/)
			await ui.page.keyboard.press('Escape')
			expect(await isOpen()).toBe(false)
			expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true)
			// Open again and tab past the last choice: the list closes instead of covering the table.
			await ui.page.keyboard.press('Enter')
			const choices = await menu.locator('input[type=checkbox]').count()
			for (let step = 0; step <= choices; step++) await ui.page.keyboard.press('Tab')
			expect(await menu.evaluate((details) => details.contains(document.activeElement))).toBe(false)
			expect(await isOpen()).toBe(false)
			// Put the first choice back as it was for the tests after this one.
			await summary.click()
			await menu.locator('input[type=checkbox]').first().click()
			await summary.click()
		},
		BROWSER_TIMEOUT
	)

	test(
		'posts open with picture, date, caption, likes, comments, type and link; the rest is in the Columns menu',
		async () => {
			await openPanel(ui.page, ui.playground, 'feed/user')
			await runAction(ui.page, 'user')
			expect(await headers()).toEqual([
				'#',
				'picture',
				'date',
				'caption',
				'likes',
				'comments',
				'type',
				'link'
			])
			expect(await (await columnCells('type')).allTextContents()).toContain('reel')
			const link = (await columnCells('link')).first().locator('a')
			expect(await link.getAttribute('href')).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/)
			expect(await (await columnCells('picture')).first().locator('img').count()).toBe(1)

			const menu = ui.page.locator('main .result .column-menu')
			expect(await menu.locator('summary').textContent()).toMatch(/^Columns \(7 of \d+\)$/)
			await menu.locator('summary').click()
			for (const hidden of ['pk', 'id', 'code', 'media_type', 'user.username'])
				expect(await menu.locator(`input[value="${hidden}"]`).isChecked()).toBe(false)
			await menu.locator('input[value="id"]').check()
			expect(await headers()).toContain('id')
			// The choice holds for the next posts result.
			await runAction(ui.page, 'user')
			expect(await headers()).toEqual([
				'#',
				'picture',
				'date',
				'caption',
				'likes',
				'comments',
				'type',
				'link',
				'id'
			])
		},
		BROWSER_TIMEOUT
	)

	test(
		'times are local dates with the raw value on hover; long ids stay on one line',
		async () => {
			const time = (await columnCells('date')).first().locator('time')
			const raw = await time.getAttribute('title')
			expect(raw).toMatch(/^\d{10}$/)
			const expected = await ui.page.evaluate(
				(seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }),
				Number(raw)
			)
			expect(await time.textContent()).toBe(expected)
			expect(expected).not.toMatch(/^\d+$/)

			// At a width where the table must scroll, an id still takes exactly one line.
			await ui.page.setViewportSize({ width: 900, height: 900 })
			const idCell = (await columnCells('id')).first()
			expect(await idCell.textContent()).toMatch(/^\d+_\d+$/)
			const lines = await idCell.evaluate((cell) => {
				const range = document.createRange()
				range.selectNodeContents(cell)
				return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
			})
			expect(lines).toBe(1)
			await ui.page.setViewportSize({ width: 1280, height: 900 })
		},
		BROWSER_TIMEOUT
	)

	test(
		'on a phone each record is a card of labelled values and nothing scrolls sideways',
		async () => {
			await ui.page.setViewportSize({ width: 390, height: 844 })
			try {
				await runAction(ui.page, 'user')
				expect(await table().locator('thead').isVisible()).toBe(false)
				const firstRow = table().locator('tbody tr').first()
				expect(await firstRow.evaluate((row) => getComputedStyle(row).display)).toBe('block')
				const labels = await firstRow
					.locator('td')
					.evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content))
				expect(labels.slice(0, 5)).toEqual(['"#"', '"picture"', '"date"', '"caption"', '"likes"'])
				// Every line of the card spans it (a cell keeps no table width of its own).
				const widths = await firstRow
					.locator('td')
					.evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width))
				const rowWidth = await firstRow.evaluate((row) => row.clientWidth)
				for (const width of widths) expect(width).toBeGreaterThan(rowWidth * 0.8)
				const box = await firstRow.boundingBox()
				expect(box?.width ?? 999).toBeLessThanOrEqual(390)
				expect(await ui.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
			} finally {
				await ui.page.setViewportSize({ width: 1280, height: 900 })
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		"a single object's Table view is field/value rows, nested fields dotted, no extra columns",
		async () => {
			await openPanel(ui.page, ui.playground, 'media/info')
			await runAction(ui.page, 'info')
			await ui.page.locator('main .result [role=tab]', { hasText: 'Table' }).click()
			const fields = ui.page.locator('main .result .field-table')
			expect(await fields.locator('thead th').allTextContents()).toEqual(['field', 'value'])
			expect(await fields.locator('tbody tr').first().locator('th, td').count()).toBe(2)
			const row = (field: string) =>
				fields.locator('tbody tr', { has: ui.page.locator(`th:text-is("${field}")`) })
			expect(await row('user.username').locator('td').textContent()).toBe('luna.explorer')
			expect(await row('code').locator('td').textContent()).toMatch(/^[\w-]+$/)
			expect(await row('taken_at').locator('td time').getAttribute('title')).toMatch(/^\d{10}$/)
			expect(await ui.page.locator('main .result .column-menu').count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
