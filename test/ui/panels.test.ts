/**
 * Every panel in a real Chromium against a demo playground: each of the 16 opens by deep link at
 * 1280 px and 390 px (screenshots under test-artifacts/screenshots/), every endpoint of every data
 * panel renders a result, navigation works by keyboard and from the mobile menu, and the page
 * never contacts another origin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { DATA_PANELS } from '../../assets/playground/panels/catalog'
import {
	BROWSER_TIMEOUT,
	closeDemoBrowser,
	type DemoPlayground,
	expectCleanPage,
	type ForeignRequests,
	openDemoBrowser,
	openPanel,
	type PageWatch,
	runAction,
	SCREENSHOT_DIR
} from '../support/browser'

const PANELS = [
	['ai-chat', 'AI Chat'],
	['users', 'Users'],
	['media', 'Media'],
	['feed', 'Feed'],
	['search', 'Search'],
	['stories', 'Stories'],
	['friendships', 'Friendships'],
	['account', 'Account'],
	['public', 'Public'],
	['hashtags', 'Hashtags'],
	['notifications', 'Notifications'],
	['direct', 'Direct'],
	['jobs', 'Jobs'],
	['saved', 'Saved'],
	['history', 'History'],
	['dashboard', 'Dashboard'],
	['watch', 'Watch'],
	['analytics', 'Analytics'],
	['compare', 'Compare']
] as const

let playground: DemoPlayground
let browser: Browser
let page: Page
let foreign: ForeignRequests
let watch: PageWatch

beforeAll(async () => {
	;({ playground, browser, page, foreign, watch } = await openDemoBrowser())
	await mkdir(SCREENSHOT_DIR, { recursive: true })
}, BROWSER_TIMEOUT)

afterAll(() => closeDemoBrowser({ browser, playground }), BROWSER_TIMEOUT)

describe('panels', () => {
	test(
		'the navigation lists the 16 panels in order',
		async () => {
			await openPanel(page, playground, 'users')
			expect(await page.locator('#nav-list .nav-link').allTextContents()).toEqual(
				PANELS.map(([, title]) => title)
			)
			await expect(page.locator('.badge-demo').textContent()).resolves.toBe('Demo data')
		},
		BROWSER_TIMEOUT
	)

	test(
		'every data endpoint renders a successful result',
		async () => {
			const failures: string[] = []
			for (const panel of DATA_PANELS) {
				await openPanel(page, playground, panel.id)
				for (const action of panel.actions) {
					const result = await runAction(page, action.id)
					const status = await result.locator('.result-status .tag').first().textContent()
					if (status !== '200 OK')
						failures.push(`${panel.id}/${action.id}: ${status} ${await result.textContent()}`)
					else await result.locator('.result-body').waitFor()
				}
			}
			expect(failures).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	for (const width of [1280, 390]) {
		test(
			`each panel opens by deep link at ${width} px`,
			async () => {
				await page.setViewportSize({ width, height: width > 800 ? 900 : 844 })
				for (const [id, title] of PANELS) {
					await openPanel(page, playground, id)
					expect(await page.locator('main .panel-title').textContent()).toBe(title)
					expect(await page.locator(`.nav-link[aria-current="page"]`).textContent()).toBe(title)
					const panel = DATA_PANELS.find((candidate) => candidate.id === id)
					if (panel) await runAction(page, panel.actions[0].id)
					if (id === 'dashboard') await page.locator('.stat-grid').waitFor()
					if (id === 'history') await page.locator('.history-table').waitFor()
					if (id === 'jobs') await page.locator('.jobs-list .result-empty, .jobs-list .job').first().waitFor()
					if (id === 'ai-chat') await page.locator('.notice').waitFor()
					// No horizontal scrolling of the page itself, even at phone width.
					const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
					expect(overflow).toBeLessThanOrEqual(0)
					await page.screenshot({ path: join(SCREENSHOT_DIR, `${id}-${width}.png`), fullPage: true })
				}
				await page.setViewportSize({ width: 1280, height: 900 })
			},
			BROWSER_TIMEOUT
		)
	}

	test(
		'the mobile menu opens, navigates and closes',
		async () => {
			await page.setViewportSize({ width: 360, height: 740 })
			await openPanel(page, playground, 'users')
			const toggle = page.locator('#nav-toggle')
			await expect(page.locator('#sidebar').isVisible()).resolves.toBe(false)
			await toggle.click()
			expect(await toggle.getAttribute('aria-expanded')).toBe('true')
			await page.locator('#sidebar .nav-link', { hasText: 'Hashtags' }).click()
			await expect(page.locator('main .panel-title').textContent()).resolves.toBe('Hashtags')
			expect(await toggle.getAttribute('aria-expanded')).toBe('false')
			expect(page.url()).toEndWith('#hashtags/info')
			await page.setViewportSize({ width: 1280, height: 900 })
		},
		BROWSER_TIMEOUT
	)

	test(
		'keyboard: a nav link opens with Enter and Enter in a field submits',
		async () => {
			await openPanel(page, playground, 'users')
			await page.locator('.nav-link', { hasText: 'Public' }).focus()
			await page.keyboard.press('Enter')
			await expect(page.locator('main .panel-title').textContent()).resolves.toBe('Public')
			const input = page.locator('main input[name="username"]')
			await input.fill('luna.explorer')
			await input.press('Enter')
			await page.locator('main .result[aria-busy="false"] .summary-card').waitFor()
			expect(await page.locator('main .summary-card .card-subtitle').textContent()).toContain(
				'@luna.explorer'
			)
		},
		BROWSER_TIMEOUT
	)

	test(
		'keyboard focus is visible',
		async () => {
			await openPanel(page, playground, 'users')
			await page.locator('main .action-tabs [data-action="search"]').focus()
			await page.keyboard.press('Tab')
			await page.keyboard.press('Shift+Tab')
			const outline = await page.evaluate(() => {
				const style = getComputedStyle(document.activeElement as Element)
				return {
					style: style.outlineStyle,
					width: style.outlineWidth,
					text: document.activeElement?.textContent
				}
			})
			expect(outline).toEqual({ style: 'solid', width: '2px', text: 'Search' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'the theme follows the system: dark',
		async () => {
			const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
			await page.emulateMedia({ colorScheme: 'light' })
			await openPanel(page, playground, 'users')
			expect(await background()).toBe('rgb(246, 247, 249)')
			await page.emulateMedia({ colorScheme: 'dark' })
			expect(await background()).toBe('rgb(15, 17, 21)')
			await runAction(page, 'username')
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'users-1280-dark.png'), fullPage: true })
			await page.emulateMedia({ colorScheme: 'light' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'no request left 127.0.0.1 and no script error happened',
		() => expectCleanPage({ foreign, watch }),
		BROWSER_TIMEOUT
	)
})
