/**
 * The result view in Chromium against a demo playground: load more with the cursor, sorting, the
 * table, tree, images and raw views, copy, errors shown with their code, URL-encoded queries, and a
 * comment row's button that opens all its replies.
 */
import { describe, expect, test } from 'bun:test'
import { THREAD } from '../../assets/playground/panels/catalog-fields'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, runAction, useDemoBrowser } from '../support/browser'

const ui = useDemoBrowser({}, { permissions: ['clipboard-read', 'clipboard-write'] })

const rows = () => ui.page.locator('main .result .data-table tbody tr')

describe('result view', () => {
	test(
		'followers: a table of 50, "Load more" appends the next page using the cursor',
		async () => {
			await openPanel(ui.page, ui.playground, 'friendships/followers')
			await runAction(ui.page, 'followers')
			expect(await rows().count()).toBe(50)
			expect(await ui.page.locator('main .result-count').textContent()).toBe('50 items')
			const next = ui.page.waitForRequest((request) =>
				/\/api\/friendships\/followers\/1000000002\?.*cursor=/.test(request.url())
			)
			await ui.page.locator('main .load-more button').click()
			await next
			await ui.page.locator('main .result-count', { hasText: '100 items' }).waitFor()
			expect(await rows().count()).toBe(100)
			const usernames = await ui.page.locator('main .data-table tbody tr td:nth-child(3)').allTextContents()
			expect(new Set(usernames).size).toBe(100)
		},
		BROWSER_TIMEOUT
	)

	test(
		'table columns sort both ways and say so with aria-sort',
		async () => {
			const header = ui.page.locator('main .data-table thead th', { hasText: /^username$/ })
			await header.locator('button').click()
			expect(await header.getAttribute('aria-sort')).toBe('ascending')
			const column = await header.evaluate((th) => (th as HTMLTableCellElement).cellIndex + 1)
			const ascending = await ui.page
				.locator(`main .data-table tbody tr td:nth-child(${column})`)
				.allTextContents()
			expect(ascending).toEqual(
				[...ascending].sort((left, right) => left.localeCompare(right, undefined, { numeric: true }))
			)
			await header.locator('button').click()
			expect(await header.getAttribute('aria-sort')).toBe('descending')
			const descending = await ui.page
				.locator(`main .data-table tbody tr td:nth-child(${column})`)
				.allTextContents()
			expect(descending).toEqual([...ascending].reverse())
		},
		BROWSER_TIMEOUT
	)

	test(
		'tree, images and raw views; profile pictures load from the simulator',
		async () => {
			await ui.page.locator('main [role=tab]', { hasText: 'Tree' }).click()
			await ui.page.locator('main .json-tree details').first().waitFor()
			await ui.page.locator('main [role=tab]', { hasText: 'Images' }).click()
			const image = ui.page.locator('main .gallery img').first()
			await image.waitFor()
			expect(await image.getAttribute('src')).toStartWith(ui.playground.simulator.url)
			await ui.page.locator('main [role=tab]', { hasText: 'Raw' }).click()
			const raw = JSON.parse((await ui.page.locator('main .raw-json').textContent()) ?? '[]')
			expect(raw).toHaveLength(100)
		},
		BROWSER_TIMEOUT
	)

	test(
		'the view tabs follow the tabs pattern: one in the Tab order, arrows, Home and End move and select',
		async () => {
			const tabs = ui.page.locator('main .result [role=tab]')
			const selectedTab = ui.page.locator('main .result [role=tab][aria-selected=true]')
			const focusedLabel = () => ui.page.evaluate(() => document.activeElement?.textContent ?? '')
			expect(await tabs.allTextContents()).toEqual(['Table', 'Tree', 'Images', 'Raw'])
			expect(await selectedTab.textContent()).toBe('Raw')
			expect(await tabs.evaluateAll((all) => all.map((tab) => tab.getAttribute('tabindex')))).toEqual([
				'-1',
				'-1',
				'-1',
				'0'
			])
			await selectedTab.focus()
			await ui.page.keyboard.press('ArrowRight')
			expect(await selectedTab.textContent()).toBe('Table')
			expect(await focusedLabel()).toBe('Table')
			expect(await rows().count()).toBe(100)
			await ui.page.keyboard.press('ArrowLeft')
			expect(await selectedTab.textContent()).toBe('Raw')
			expect(await focusedLabel()).toBe('Raw')
			await ui.page.keyboard.press('Home')
			expect(await selectedTab.textContent()).toBe('Table')
			await ui.page.keyboard.press('ArrowRight')
			expect(await selectedTab.textContent()).toBe('Tree')
			await ui.page.locator('main .json-tree').waitFor()
			await ui.page.keyboard.press('End')
			expect(await selectedTab.textContent()).toBe('Raw')
			expect(await focusedLabel()).toBe('Raw')
			const panel = ui.page.locator('main .result [role=tabpanel]')
			expect(await panel.getAttribute('aria-labelledby')).toBe(await selectedTab.getAttribute('id'))
			expect(await selectedTab.getAttribute('aria-controls')).toBe(await panel.getAttribute('id'))
		},
		BROWSER_TIMEOUT
	)

	test(
		'a user result shows a profile card; Copy puts the JSON on the clipboard',
		async () => {
			await openPanel(ui.page, ui.playground, 'users/username')
			await runAction(ui.page, 'username')
			expect(await ui.page.locator('main .summary-card .card-subtitle').textContent()).toContain(
				'@luna.explorer'
			)
			await ui.page.locator('main .result-actions button', { hasText: 'Copy' }).click()
			await ui.page.locator('.toast', { hasText: 'Copied' }).waitFor()
			const copied = JSON.parse(await ui.page.evaluate(() => navigator.clipboard.readText()))
			expect(copied.username).toBe('luna.explorer')
			expect(copied.pk).toBe('1000000002')
		},
		BROWSER_TIMEOUT
	)

	test(
		'an error shows the envelope error and code',
		async () => {
			await openPanel(ui.page, ui.playground, 'users/username')
			await ui.page.locator('main input[name="username"]').fill('no.such.user.smkit')
			const result = await runAction(ui.page, 'username')
			expect(await result.locator('.error-box .tag-error').textContent()).toBe('not_found')
			expect(await result.locator('.error-text').textContent()).toMatch(/not found/i)
			expect(await result.locator('.result-status .tag').textContent()).toBe('404')
		},
		BROWSER_TIMEOUT
	)

	test(
		'query strings are URL-encoded',
		async () => {
			await openPanel(ui.page, ui.playground, 'search/users')
			await ui.page.locator('main input[name="q"]').fill('a&b c#d')
			const request = ui.page.waitForRequest((candidate) => candidate.url().includes('/api/search/users?'))
			await runAction(ui.page, 'users')
			expect(new URL((await request).url()).search).toBe('?q=a%26b+c%23d')
			expect(await ui.page.locator('main .request-preview').textContent()).toBe(
				'GET /api/search/users?q=a%26b+c%23d'
			)
		},
		BROWSER_TIMEOUT
	)

	test(
		'a comment with more replies than it carries opens all of them from its row',
		async () => {
			const state = ui.playground.simulator.state
			const media = state.media(THREAD.mediaPk)
			const thread = media && state.commentsOf(media).find((comment) => comment.pk === THREAD.commentPk)
			const expected = thread?.replies.map((reply) => reply.text) ?? []
			expect(expected.length).toBeGreaterThan(2)
			await openPanel(ui.page, ui.playground, 'media/comments')
			await ui.page.locator('main input[name="media_pk"]').fill(THREAD.mediaPk)
			await runAction(ui.page, 'comments')
			// Only comments whose replies field lacks some replies have the button.
			const buttons = ui.page.locator('main .data-table tbody button', { hasText: 'Show all' })
			const withMore = media ? state.commentsOf(media).filter((comment) => comment.replies.length > 2) : []
			expect(await buttons.count()).toBe(withMore.length)
			const row = ui.page
				.locator('main .data-table tbody tr', { hasText: thread?.text ?? '' })
				.filter({ has: ui.page.locator('button', { hasText: 'Show all' }) })
			await row.locator('button', { hasText: 'Show all' }).click()
			await ui.page.locator('main .request-preview', { hasText: '/replies/' }).waitFor()
			expect(await ui.page.locator('main .request-preview').textContent()).toBe(
				`GET /api/media/comments/${THREAD.mediaPk}/replies/${THREAD.commentPk}`
			)
			await ui.page.locator('main .result[aria-busy="false"] .data-table').waitFor()
			while ((await ui.page.locator('main .load-more button').count()) > 0) {
				const count = await rows().count()
				await ui.page.locator('main .load-more button').click()
				await ui.page.waitForFunction(
					(before) => document.querySelectorAll('main .result .data-table tbody tr').length > before,
					count
				)
			}
			const texts = await ui.page.locator('main .data-table tbody tr td:nth-child(3)').allTextContents()
			expect(texts).toEqual(expected)
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
