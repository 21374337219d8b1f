/**
 * The result view from the keyboard in Chromium against a demo playground: sorting keeps the focus
 * on the header pressed, "Load more" keeps the sort, the last "Load more" leaves the focus on the
 * result and says the list is complete, the Images view shows every picture loaded, and the
 * endpoint tabs of a data panel follow the same tabs pattern as the result's view tabs.
 */
import { describe, expect, test } from 'bun:test'
import {
	BROWSER_TIMEOUT,
	expectCleanPage,
	focusedElement,
	openPanel,
	runAction,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser()

const rows = () => ui.page.locator('main .result .data-table tbody tr')
const usernameHeader = () => ui.page.locator('main .result .data-table thead th[data-column="username"]')

const focused = () => focusedElement(ui.page)

/** The usernames of the table, top to bottom. */
async function usernames(): Promise<string[]> {
	const column = await usernameHeader().evaluate((th) => (th as HTMLTableCellElement).cellIndex + 1)
	return rows().locator(`td:nth-child(${column})`).allTextContents()
}

const sorted = (values: string[]) =>
	[...values].sort((left, right) => left.localeCompare(right, undefined, { numeric: true }))

/** Runs followers of luna.explorer `count` at a time. */
async function runFollowers(count: string): Promise<void> {
	await openPanel(ui.page, ui.playground, 'friendships/followers')
	await ui.page.locator('main input[name="count"]').fill(count)
	await runAction(ui.page, 'followers')
}

/** Presses the focused "Load more" with Enter and waits for `total` items. */
async function loadMoreByKeyboard(total: number): Promise<void> {
	await ui.page.locator('main .load-more button').focus()
	await ui.page.keyboard.press('Enter')
	await ui.page.locator('main .result-count', { hasText: `${total} items` }).waitFor()
}

describe('result view from the keyboard', () => {
	test(
		'Enter on a column header sorts and leaves the focus on that header',
		async () => {
			await runFollowers('20')
			await usernameHeader().locator('button').focus()
			await ui.page.keyboard.press('Enter')
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('ascending')
			expect(await focused()).toMatchObject({ tag: 'button', column: 'username' })
			await ui.page.keyboard.press('Enter')
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('descending')
			expect(await focused()).toMatchObject({ tag: 'button', column: 'username' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'"Load more" keeps the column and direction the table is sorted by',
		async () => {
			await runFollowers('20')
			await usernameHeader().locator('button').click()
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('ascending')
			await loadMoreByKeyboard(40)
			expect(await rows().count()).toBe(40)
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('ascending')
			const ascending = await usernames()
			expect(new Set(ascending).size).toBe(40)
			expect(ascending).toEqual(sorted(ascending))
			expect(await focused()).toMatchObject({ tag: 'button', text: 'Load more' })
			// Descending, then another page, and a trip through another view: still descending.
			await usernameHeader().locator('button').click()
			await loadMoreByKeyboard(60)
			await ui.page.locator('main .result [role=tab]', { hasText: 'Tree' }).click()
			await ui.page.locator('main .result [role=tab]', { hasText: 'Table' }).click()
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('descending')
			const descending = await usernames()
			expect(descending).toEqual(sorted(descending).reverse())
			// A new run starts in the data's order.
			await runAction(ui.page, 'followers')
			expect(await usernameHeader().getAttribute('aria-sort')).toBe('none')
		},
		BROWSER_TIMEOUT
	)

	test(
		'after the last "Load more" the focus is on the result, and the announcement says the list is complete',
		async () => {
			await runFollowers('100')
			const announcer = ui.page.locator('main .result > [aria-live="polite"]')
			let total = await rows().count()
			expect(total).toBe(100)
			while ((await ui.page.locator('main .load-more button').count()) > 0) {
				await ui.page.locator('main .load-more button').focus()
				await ui.page.keyboard.press('Enter')
				await ui.page.waitForFunction(
					(before) => document.querySelectorAll('main .result .data-table tbody tr').length > before,
					total
				)
				total = await rows().count()
				if ((await ui.page.locator('main .load-more button').count()) > 0) {
					expect(await focused()).toMatchObject({ tag: 'button', text: 'Load more' })
					expect(await announcer.textContent()).not.toContain('whole list')
				}
			}
			expect(total).toBeGreaterThan(200)
			expect(await focused()).toMatchObject({ isResult: true })
			expect(await announcer.textContent()).toMatch(new RegExp(`^Loaded ${total} items, .*whole list`))
		},
		BROWSER_TIMEOUT
	)

	test(
		'the Images view shows the picture of every item loaded, beyond the first 120',
		async () => {
			// The result of the test before: every follower of luna.explorer (more than 200).
			await ui.page.locator('main .result [role=tab]', { hasText: 'Raw' }).click()
			const data = JSON.parse((await ui.page.locator('main .raw-json').textContent()) ?? '[]') as Record<
				string,
				unknown
			>[]
			const pictures = new Set(data.map((user) => user.profile_pic_url_hd ?? user.profile_pic_url))
			expect(pictures.size).toBeGreaterThan(200)
			await ui.page.locator('main .result [role=tab]', { hasText: 'Images' }).click()
			await ui.page.locator('main .gallery').waitFor()
			expect(await ui.page.locator('main .gallery li').count()).toBe(pictures.size)
		},
		BROWSER_TIMEOUT
	)

	test(
		'the endpoint tabs: one in the Tab order, arrows, Home and End move and select, the form is their panel',
		async () => {
			await openPanel(ui.page, ui.playground, 'friendships/followers')
			const tabs = ui.page.locator('main .action-tabs [role=tab]')
			const selectedTab = ui.page.locator('main .action-tabs [role=tab][aria-selected=true]')
			const panel = ui.page.locator('main [role=tabpanel]', { has: ui.page.locator('.action-form') })
			const labels = await tabs.allTextContents()
			expect(labels.length).toBeGreaterThan(2)
			const tabindexes = () => tabs.evaluateAll((all) => all.map((tab) => tab.getAttribute('tabindex')))
			expect(await tabindexes()).toEqual(labels.map((_, index) => (index === 0 ? '0' : '-1')))
			await selectedTab.focus()
			await ui.page.keyboard.press('ArrowRight')
			expect(await selectedTab.textContent()).toBe(labels[1] as string)
			expect(await focused()).toMatchObject({ text: labels[1] })
			expect(await tabindexes()).toEqual(labels.map((_, index) => (index === 1 ? '0' : '-1')))
			expect(await panel.locator('form').getAttribute('aria-label')).toBe(labels[1] as string)
			expect(ui.page.url()).toEndWith('#friendships/following')
			await ui.page.keyboard.press('ArrowLeft')
			await ui.page.keyboard.press('ArrowLeft')
			expect(await selectedTab.textContent()).toBe(labels.at(-1) as string)
			expect(await focused()).toMatchObject({ text: labels.at(-1) })
			await ui.page.keyboard.press('Home')
			expect(await focused()).toMatchObject({ text: labels[0] })
			await ui.page.keyboard.press('End')
			expect(await selectedTab.textContent()).toBe(labels.at(-1) as string)
			expect(await panel.getAttribute('aria-labelledby')).toBe(await selectedTab.getAttribute('id'))
			expect(await selectedTab.getAttribute('aria-controls')).toBe(await panel.getAttribute('id'))
			// Tab leaves the tab list for the form, not for the next tab.
			await ui.page.keyboard.press('Home')
			await ui.page.keyboard.press('Tab')
			expect(await panel.evaluate((element) => element.contains(document.activeElement))).toBe(true)
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
