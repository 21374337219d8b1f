/**
 * Rough edges of the playground UI, in Chromium against a demo playground:
 *
 * - the focus after creating or deleting (lib/focus.ts): "Start job" and "Add watch" give it to the
 *   new job's card and the new watch's name; a confirmed delete (job, watch, saved result) to the
 *   item that took the deleted one's place, and to the panel's heading when the list is empty;
 * - a toast lets clicks through to the Watch table's buttons it covers;
 * - the watch detail's snapshot pickers offer only pairs from an earlier to a later snapshot;
 * - a 100-letter hashtag neither widens the Watch panel nor covers the table's other columns.
 */
import { describe, expect, test } from 'bun:test'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import {
	BROWSER_TIMEOUT,
	expectCleanPage,
	focusedElement,
	openPanel,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser()

const focused = () => focusedElement(ui.page)

/** Focuses `locator` and presses Enter, as a keyboard user does. */
async function pressEnterOn(locator: Locator): Promise<void> {
	await locator.focus()
	await ui.page.keyboard.press('Enter')
}

/** Presses a row's Delete and confirms it in the dialog, from the keyboard. */
async function deleteFromKeyboard(deleteButton: Locator): Promise<void> {
	await pressEnterOn(deleteButton)
	await pressEnterOn(ui.page.locator('dialog.dialog[open] button', { hasText: 'Delete' }))
}

/** A watch's row in the table. */
const watchRow = (label: string) => ui.page.locator('main .watch-table tbody tr', { hasText: label })

/** Adds a watch from the keyboard ("Add watch" pressed with Enter) and waits for its first snapshot. */
async function addWatch(target: string): Promise<void> {
	await ui.page.locator('main input[name="target"]').fill(target)
	await pressEnterOn(ui.page.locator('main form button[type=submit]'))
	await watchRow(target).filter({ hasText: '1 snapshot' }).waitFor()
}

describe('the focus after creating and deleting', () => {
	test(
		'"Start job" gives the focus to the new job\'s card; a deleted job\'s goes to the next card, then to the heading',
		async () => {
			await openPanel(ui.page, ui.playground, 'jobs')
			const ids: string[] = []
			for (const tag of ['coffee', 'sunset']) {
				await ui.page.locator('#job-kind').selectOption('tag')
				await ui.page.locator('#job-target').fill(tag)
				await ui.page.locator('#job-limit').fill('5')
				await pressEnterOn(ui.page.locator('main form button[type=submit]'))
				const card = ui.page.locator('main article.job', { hasText: `tag · ${tag}` })
				await card.locator('button', { hasText: 'Delete' }).waitFor()
				const id = (await card.getAttribute('data-job')) as string
				expect(await focused()).toMatchObject({ tag: 'article', label: `Job ${id}` })
				ids.push(id)
			}
			for (const id of ids)
				await ui.page.locator(`main article.job[data-job="${id}"][data-status="done"]`).waitFor()
			// The newest is on top: deleted, the focus goes to the card below it (the first job).
			await deleteFromKeyboard(
				ui.page.locator(`main article.job[data-job="${ids[1]}"] button[data-act="delete"]`)
			)
			await ui.page.locator(`main article.job[data-job="${ids[1]}"]`).waitFor({ state: 'detached' })
			expect(await focused()).toMatchObject({ tag: 'article', label: `Job ${ids[0]}` })
			await deleteFromKeyboard(
				ui.page.locator(`main article.job[data-job="${ids[0]}"] button[data-act="delete"]`)
			)
			await ui.page.locator('main .jobs-list .result-empty').waitFor()
			expect(await focused()).toMatchObject({ tag: 'h1', text: 'Jobs' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'"Add watch" gives the focus to the new watch\'s name, selected',
		async () => {
			await openPanel(ui.page, ui.playground, 'watch')
			for (const target of ['#coffee', '#sunset']) {
				await addWatch(target)
				expect(await focused()).toMatchObject({ tag: 'button', text: target, pressed: 'true' })
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		"a deleted saved result's focus goes to the next file's View, the last one's to the previous, then to the heading",
		async () => {
			// Three saved files, newest first in the list: a, b, c.
			for (const [index, name] of ['c', 'b', 'a'].entries()) {
				const file = join(ui.playground.savedDir, `edge-${name}.json`)
				await writeFile(file, JSON.stringify({ request: `GET /api/users/${name}`, result: { data: [] } }))
				const time = new Date(Date.UTC(2025, 0, 1 + index))
				await utimes(file, time, time)
			}
			await openPanel(ui.page, ui.playground, 'saved')
			const row = (name: string) => ui.page.locator('main .saved-table tbody tr', { hasText: `edge-${name}` })
			await row('c').waitFor()
			for (const [gone, next] of [
				['b', 'c'],
				['c', 'a']
			] as const) {
				await deleteFromKeyboard(row(gone).locator('button', { hasText: 'Delete' }))
				await row(gone).waitFor({ state: 'detached' })
				expect(await focused()).toMatchObject({ tag: 'button', label: `View edge-${next}.json` })
			}
			await deleteFromKeyboard(row('a').locator('button', { hasText: 'Delete' }))
			await ui.page.locator('main .saved-list .result-empty').waitFor()
			expect(await focused()).toMatchObject({ tag: 'h1', text: 'Saved' })
		},
		BROWSER_TIMEOUT
	)
})

describe('the Watch panel', () => {
	test(
		'a toast over "Run now" lets the click through to it, and stays on screen',
		async () => {
			await ui.page.setViewportSize({ width: 1280, height: 400 })
			await openPanel(ui.page, ui.playground, 'watch')
			const coffee = watchRow('#coffee')
			const runNow = coffee.locator('button', { hasText: 'Run now' })
			await runNow.click()
			const toast = ui.page.locator('.toast', { hasText: /Snapshot \d+ of #coffee/ }).last()
			await toast.waitFor()
			// The table is drawn again when the run is over: the button to press is the new one.
			await coffee.filter({ hasText: '2 snapshots' }).waitFor()
			// Scrolls the page until the toast covers the middle of "Run now".
			const point = await ui.page.evaluate(
				([button, shown]) => {
					const middle = (element: Element) => {
						const box = element.getBoundingClientRect()
						return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
					}
					window.scrollBy(0, middle(button as Element).y - middle(shown as Element).y)
					const { x, y } = middle(button as Element)
					const box = (shown as Element).getBoundingClientRect()
					const covered = x >= box.left && x <= box.right && y >= box.top && y <= box.bottom
					return { x, y, covered, hit: document.elementFromPoint(x, y)?.closest('button') === button }
				},
				[await runNow.elementHandle(), await toast.elementHandle()]
			)
			expect(point.covered).toBe(true)
			expect(await toast.isVisible()).toBe(true)
			expect(point.hit).toBe(true)
			await ui.page.mouse.click(point.x, point.y)
			await coffee.filter({ hasText: '3 snapshots' }).waitFor()
			await ui.page.setViewportSize({ width: 1280, height: 900 })
		},
		BROWSER_TIMEOUT
	)

	test(
		'the snapshot pickers offer only pairs from an earlier to a later snapshot, and the diff shows',
		async () => {
			await openPanel(ui.page, ui.playground, 'watch')
			const coffee = watchRow('#coffee')
			await coffee.locator('button.link-button').click()
			// Three snapshots (the toast's test took two), for a choice of pairs.
			const snapshots = async () =>
				Number((await coffee.locator('td').nth(2).textContent())?.match(/\d+/)?.[0])
			for (let count = await snapshots(); count < 3; count++) {
				await coffee.locator('button', { hasText: 'Run now' }).click()
				await coffee.filter({ hasText: `${count + 1} snapshots` }).waitFor()
			}
			await ui.page.locator('main .section-title', { hasText: '#coffee: growth' }).waitFor()
			const from = ui.page.locator('#watch-diff-from')
			const to = ui.page.locator('#watch-diff-to')
			await from.locator('option').nth(2).waitFor({ state: 'attached' })
			const ids = await from
				.locator('option')
				.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
			const offered = (select: Locator) =>
				select
					.locator('option:not(:disabled)')
					.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
			const [first, second, third] = ids
			// At first the last two: "From" offers all but the last, "To" only what comes after "From".
			expect([await from.inputValue(), await to.inputValue()]).toEqual([second, third])
			expect(await offered(from)).toEqual([first, second])
			expect(await offered(to)).toEqual([third])
			await from.selectOption(first as string)
			expect(await offered(to)).toEqual([second, third])
			await to.selectOption(second as string)
			// A "From" at "To" moves "To" on: never the same snapshot twice.
			await from.selectOption(second as string)
			expect(await to.inputValue()).toBe(third as string)
			const answer = ui.page.waitForResponse((response) => response.url().includes('/diff?'))
			await ui.page.locator('main .watch-diff-form button').click()
			expect((await answer).status()).toBe(200)
			await ui.page.locator('main .watch-counts').waitFor()
			expect(await ui.page.locator('main .watch-diff .error-box').count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a 100-letter hashtag is cut short in the table (whole in its title) and wraps in the detail',
		async () => {
			const label = `#${'a'.repeat(100)}`
			await openPanel(ui.page, ui.playground, 'watch')
			await addWatch(label)
			await ui.page.locator('main .watch-detail .section-title', { hasText: label }).waitFor()
			const name = watchRow(label).locator('button.link-button')
			expect(await name.getAttribute('title')).toBe(label)
			for (const width of [1280, 390]) {
				await ui.page.setViewportSize({ width, height: 900 })
				const layout = await name.evaluate((button) => {
					const panel = document.querySelector('main .panel') as HTMLElement
					const scroller = button.closest('.table-scroll') as HTMLElement
					return {
						page: document.documentElement.scrollWidth - window.innerWidth,
						panel: panel.scrollWidth - panel.clientWidth,
						table: scroller.scrollWidth - scroller.clientWidth,
						name:
							button.getBoundingClientRect().right -
							(button.closest('td') as HTMLElement).getBoundingClientRect().right
					}
				})
				// Overflow in pixels, none wanted (a negative difference is room to spare).
				const overflow: Record<string, number> = { width }
				for (const [key, value] of Object.entries(layout)) overflow[key] = Math.max(0, value)
				expect(overflow).toEqual({ width, page: 0, panel: 0, table: 0, name: 0 })
			}
			await ui.page.setViewportSize({ width: 1280, height: 900 })
		},
		BROWSER_TIMEOUT
	)

	test(
		"a deleted watch's focus goes to the next watch's name, the last one's to the heading",
		async () => {
			await openPanel(ui.page, ui.playground, 'watch')
			const labels = await ui.page.locator('main .watch-table tbody button.link-button').allTextContents()
			for (const [index, label] of labels.entries()) {
				await deleteFromKeyboard(watchRow(label).locator('button', { hasText: 'Delete' }))
				const next = labels[index + 1]
				if (next === undefined) {
					await ui.page.locator('main .watch-list .result-empty').waitFor()
					expect(await focused()).toMatchObject({ tag: 'h1', text: 'Watch' })
				} else {
					await ui.page
						.locator('main .watch-table tbody tr', { hasText: label })
						.first()
						.waitFor({ state: 'detached' })
					expect(await focused()).toMatchObject({ tag: 'button', text: next })
				}
			}
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
