/**
 * The Dashboard in Chromium: the requests-per-minute chart shows the server's last hour from the
 * first look, its time labels never overlap whatever the number of minutes, and the error figures
 * count only errors a person saw.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import {
	BROWSER_TIMEOUT,
	closeDemoBrowser,
	type DemoBrowser,
	expectCleanPage,
	openDemoBrowser,
	openPanel
} from '../support/browser'

let session: DemoBrowser

beforeAll(async () => {
	session = await openDemoBrowser()
}, BROWSER_TIMEOUT)

afterAll(() => closeDemoBrowser(session), BROWSER_TIMEOUT)

/** The chart's axis labels as drawn: text and horizontal extent in the SVG's own units. */
function axisLabelBoxes(page: Page) {
	return page
		.locator('main svg.chart')
		.first()
		.evaluate((chart) =>
			[...chart.querySelectorAll<SVGTextElement>('text.chart-axis-label')].map((label) => {
				const box = label.getBBox()
				return { text: label.textContent ?? '', left: box.x, right: box.x + box.width }
			})
		)
}

async function dashboardData(page: Page) {
	return page.evaluate(async () => (await (await fetch('/api/dashboard')).json()).data)
}

describe('requests per minute', () => {
	test(
		'the first look shows the server counts of this minute; a search that found nobody is no error',
		async () => {
			const { page, playground } = session
			await openPanel(page, playground, 'search/users')
			await page.locator('main .action-form input[name="q"]').fill('zzz')
			await page.locator('main .action-form button[type=submit]').click()
			await page.locator('main .result[aria-busy="false"]').waitFor()

			await openPanel(page, playground, 'dashboard')
			await page.locator('main .stat-grid').waitFor()
			const data = await dashboardData(page)
			const minutes = data.client.per_minute as { minute: string; requests: number; errors: number }[]
			expect(minutes.at(-1)?.requests).toBeGreaterThan(0)
			const columns = page.locator('main svg.chart').first().locator('g.chart-column')
			expect(await columns.count()).toBe(minutes.length)
			expect(await columns.last().locator('title').textContent()).toContain(`: ${minutes.at(-1)?.requests}`)
			// The exact-username look-up of "zzz" failed inside the search; nobody saw an error.
			const client = page.locator('main .stat-card', { hasText: 'Instagram client' })
			expect(await client.locator('dt', { hasText: 'Errors' }).locator('+ dd').textContent()).toBe('0')
			expect(await page.locator('main .stat-card', { hasText: 'Errors by kind' }).count()).toBe(0)
			expectCleanPage(session)
		},
		BROWSER_TIMEOUT
	)

	test(
		'time labels never overlap and stay inside the chart, from 1 to 60 minutes',
		async () => {
			const { page, playground } = session
			const real = await dashboardData(page)
			const hourAgo = Date.UTC(2026, 10, 23, 18, 48)
			for (const count of [1, 2, 3, 7, 13, 30, 60]) {
				const minutes = Array.from({ length: count }, (_, index) => ({
					minute: new Date(hourAgo + (60 - count + index) * 60_000).toISOString(),
					requests: (index * 7) % 11,
					errors: index % 5 === 0 ? 1 : 0
				}))
				await page.route('**/api/dashboard', (route) =>
					route.fulfill({
						json: {
							success: true,
							message: 'test',
							data: { ...real, client: { ...real.client, per_minute: minutes } }
						}
					})
				)
				// Another panel first: opening the Dashboard again fetches /api/dashboard at once.
				await openPanel(page, playground, 'users')
				await openPanel(page, playground, 'dashboard')
				// The latest minute is always labelled, in the browser's local time.
				const latest = await page.evaluate(
					(iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
					minutes.at(-1)?.minute ?? ''
				)
				// Wait for the chart drawn from these minutes, not one drawn from the real counts by a
				// refresh that ran before the route was in place.
				await page.waitForFunction(
					({ columns, label }) => {
						const chart = document.querySelector('main svg.chart')
						const labels = chart?.querySelectorAll('text.chart-axis-label') ?? []
						return (
							chart?.querySelectorAll('g.chart-column').length === columns &&
							labels[labels.length - 1]?.textContent === label
						)
					},
					{ columns: count, label: latest }
				)
				const labels = await axisLabelBoxes(page)
				expect(labels.length).toBeGreaterThan(0)
				if (count >= 30) expect(labels.length).toBeGreaterThanOrEqual(3)
				for (const label of labels) {
					expect(label.left).toBeGreaterThanOrEqual(0)
					expect(label.right).toBeLessThanOrEqual(320)
				}
				for (let index = 1; index < labels.length; index++)
					expect(labels[index].left).toBeGreaterThan(labels[index - 1].right)
				expect(labels.at(-1)?.text).toBe(latest)
				expect(await page.locator('main svg.chart rect.chart-bar-error').count()).toBe(
					minutes.filter((minute) => minute.errors > 0 && minute.requests > 0).length
				)
				await page.unroute('**/api/dashboard')
			}
			expectCleanPage(session)
		},
		BROWSER_TIMEOUT
	)
})

describe('refreshing', () => {
	test(
		'the three-second refresh keeps the keyboard focus and the tree nodes opened in the raw data',
		async () => {
			const { page, playground } = session
			await openPanel(page, playground, 'dashboard')
			await page.locator('main .stat-grid').waitFor()
			// By keyboard: open "Raw dashboard data", then its "client" node.
			await page.locator('main .raw-details > summary').focus()
			await page.keyboard.press('Enter')
			const clientNode = page.locator('main .raw-details .json-node .json-node > summary', {
				hasText: 'client'
			})
			await clientNode.focus()
			await page.keyboard.press('Enter')
			expect(await clientNode.evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open)).toBe(
				true
			)
			// Wait for a refresh to replace the content (the focused element leaves the page).
			await page.evaluate(() => {
				;(window as unknown as { focusedBefore: Element | null }).focusedBefore = document.activeElement
			})
			await page.waitForFunction(
				() => !(window as unknown as { focusedBefore: Element }).focusedBefore.isConnected,
				undefined,
				{ timeout: 10_000 }
			)
			const after = await page.evaluate(() => {
				const active = document.activeElement as HTMLElement
				return {
					tag: active.tagName,
					text: active.textContent,
					open: (active.parentElement as HTMLDetailsElement).open,
					rawOpen: (document.querySelector('main .raw-details') as HTMLDetailsElement).open
				}
			})
			expect(after).toEqual({
				tag: 'SUMMARY',
				text: expect.stringMatching(/^client: \{\d+\}$/),
				open: true,
				rawOpen: true
			})
			// Tab goes on from there, not from the top of the page.
			await page.keyboard.press('Tab')
			expect(await page.evaluate(() => document.activeElement?.closest('.raw-details') !== null)).toBe(true)
			expectCleanPage(session)
		},
		BROWSER_TIMEOUT
	)
})
