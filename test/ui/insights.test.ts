/**
 * The Watch, Analytics and Compare panels in Chromium on a demo playground: compare of three demo
 * accounts with the best value of each row marked, the analytics heat map and top posts, and a
 * watch whose diff appears after "advance demo time by a day" and a second run. Screenshots go to
 * test-artifacts/screenshots/.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { createPlaygroundApp } from '../../src/playground/app'
import { uiPublicPaths } from '../../src/playground/ui'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	SCREENSHOT_DIR,
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
	// The simulator demands a control token, as demo mode's own does: the playground moves its clock.
	;[simulator, browser, saved] = await Promise.all([
		startSimulator({ port: 0, host: '127.0.0.1', controlToken: true }),
		launchBrowser(),
		temporaryDirectory('smkit-ui-watch-')
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
	mkdirSync(SCREENSHOT_DIR, { recursive: true })
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await simulator?.stop()
	await saved?.remove()
}, BROWSER_TIMEOUT)

async function open(panel: string) {
	await page.goto(`${origin}/#${panel}`)
	await page.locator('main .panel-title').waitFor()
}

const api = async (path: string) => (await (await fetch(`${origin}${path}`)).json()).data

test(
	'Compare of three demo accounts marks the best value of each ranked row',
	async () => {
		await open('compare')
		await page.locator('main input[name="users"]').fill('luna.explorer, mega.travel, xss.payload')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .compare-table').waitFor()
		const expected = await api('/api/compare?users=luna.explorer,mega.travel,xss.payload&posts=30')
		const headers = await page.locator('main .compare-table thead .compare-user').allTextContents()
		expect(headers).toEqual(['@luna.explorer', '@mega.travel', '@xss.payload'])
		for (const row of expected.rows as { metric: string; best: string | null }[]) {
			const cells = page.locator(`main .compare-table tr[data-metric="${row.metric}"] td`)
			const marked = await cells.evaluateAll((tds) => tds.map((td) => td.classList.contains('compare-best')))
			expect(marked).toEqual(expected.usernames.map((name: string) => name === row.best))
		}
		const followers = page.locator('main .compare-table tr[data-metric="follower_count"] td.compare-best')
		expect(await followers.textContent()).toContain('5,')
		await page.screenshot({ path: join(SCREENSHOT_DIR, 'compare-3-demo-accounts.png'), fullPage: true })
	},
	BROWSER_TIMEOUT
)

test(
	'Analytics shows the figures, a 7 x 24 heat map holding every analysed post, and top posts as images',
	async () => {
		await open('analytics')
		await page.locator('main input[name="username"]').fill('luna.explorer')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .heatmap').waitFor()
		const figures = await api('/api/analytics/profile/luna.explorer?posts=30')
		expect(await page.locator('main .heatmap td.heat-cell').count()).toBe(7 * 24)
		const counts = await page.locator('main .heatmap td.heat-on').allTextContents()
		expect(counts.reduce((sum, text) => sum + Number(text), 0)).toBe(figures.posts_analyzed)
		expect(await page.locator('main .top-post img').count()).toBe(figures.top_posts.length)
		await page
			.locator('main .top-post img')
			.first()
			.evaluate((image: HTMLImageElement) => image.decode())
		await page.screenshot({ path: join(SCREENSHOT_DIR, 'analytics-luna.png'), fullPage: true })
		// On a phone all 24 hours fit: the last column is in view, with nothing to scroll sideways.
		for (const width of [390, 360]) {
			await page.setViewportSize({ width, height: 844 })
			const fit = await page.locator('main .heatmap').evaluate((table) => {
				const box = table.parentElement as HTMLElement
				const lastCells = [...table.querySelectorAll('tr')].map((row) => row.lastElementChild as Element)
				return {
					overflow: box.scrollWidth - box.clientWidth,
					right: Math.max(...lastCells.map((cell) => cell.getBoundingClientRect().right)),
					boxRight: box.getBoundingClientRect().right
				}
			})
			expect(fit.overflow).toBeLessThanOrEqual(0)
			expect(fit.right).toBeLessThanOrEqual(fit.boxRight)
			await page
				.locator('main .heatmap')
				.screenshot({ path: join(SCREENSHOT_DIR, `analytics-heatmap-${width}.png`) })
		}
		await page.setViewportSize({ width: 1280, height: 900 })
	},
	BROWSER_TIMEOUT
)

test(
	'Analytics of an account without posts shows a dash for its averages and rate, not 0',
	async () => {
		await open('analytics')
		await page.locator('main input[name="username"]').fill('the.vintage.notes')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .heatmap').waitFor()
		const cards = await page
			.locator('main .stat-card')
			.evaluateAll((articles) =>
				Object.fromEntries(
					articles.map((article) => [
						article.querySelector('.stat-card-title')?.textContent,
						article.querySelector('.stat-card-value')?.textContent
					])
				)
			)
		expect(cards).toMatchObject({
			'Engagement rate': '—',
			'Average likes': '—',
			'Average comments': '—',
			'Posts per week': '—',
			'Posts analysed': '0'
		})
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'Watch: add luna.explorer, advance demo time by a day, run again: gained and lost as the API says',
	async () => {
		await open('watch')
		await page.locator('main input[name="target"]').fill('luna.explorer')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .watch-table', { hasText: '1 snapshot' }).waitFor()
		const advance = page.locator('main button', { hasText: 'Advance demo time by a day' })
		await advance.click()
		await page.locator('.toast', { hasText: 'Demo time is now' }).waitFor()
		await page.locator('main button', { hasText: 'Run now' }).click()
		await page.locator('main .watch-table', { hasText: '2 snapshots' }).waitFor()
		await page.locator('main .watch-users').first().waitFor()
		const [watch] = await api('/api/watches')
		const diff = await api(`/api/watches/${watch.id}/diff`)
		expect(diff.gained.length + diff.lost.length).toBeGreaterThan(0)
		expect(await page.locator('main [data-list="gained"] h3').textContent()).toBe(
			`Gained: ${diff.gained.length}`
		)
		expect(await page.locator('main [data-list="lost"] h3').textContent()).toBe(`Lost: ${diff.lost.length}`)
		// The people listed are the API's, in its order, not just as many.
		for (const list of ['gained', 'lost'] as const) {
			const rows = await page.locator(`main [data-list="${list}"] tbody tr`).allTextContents()
			expect(rows.length).toBe(diff[list].length)
			diff[list].forEach((user: { username: string }, index: number) => {
				expect(rows[index]).toContain(user.username)
			})
		}
		// Each list downloads as a file named after it, so gained and lost are told apart.
		for (const list of ['gained', 'lost'] as const) {
			if (diff[list].length === 0) continue
			const [download] = await Promise.all([
				page.waitForEvent('download'),
				page.locator(`main [data-list="${list}"] button`, { hasText: 'to CSV' }).click()
			])
			expect(download.suggestedFilename()).toMatch(
				new RegExp(`^followers-${list}-luna\\.explorer-${diff.from.id}-${diff.to.id}-\\d{8}-\\d{6}\\.csv$`)
			)
		}
		expect(await page.locator('main svg.chart g.chart-column').count()).toBe(2)
		// At this 1280 px window each list shows all its columns: none is cut off behind a scroll bar.
		expect(page.viewportSize()?.width).toBe(1280)
		for (const list of ['gained', 'lost'])
			expect(
				await page
					.locator(`main [data-list="${list}"] .table-scroll`)
					.evaluate((element) => element.scrollWidth - element.clientWidth)
			).toBeLessThanOrEqual(0)
		await page.screenshot({ path: join(SCREENSHOT_DIR, 'watch-luna-diff.png'), fullPage: true })

		// A hashtag watch: its growth is the tag's post count, with the top posts of the last run.
		await page.locator('main input[name="target"]').fill('#sunset')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .watch-top-posts img').first().waitFor()
		const tag = (await api('/api/watches')).find((entry: { kind: string }) => entry.kind === 'hashtag')
		const [snapshot] = await api(`/api/watches/${tag.id}/snapshots`)
		expect(await page.locator('main .watch-top-posts img').count()).toBe(snapshot.top_posts.length)
		expect(await page.locator('main .section-title', { hasText: '#sunset: growth' }).count()).toBe(1)
		// A day later, its diff lists the top posts that entered and left, as the API says.
		await advance.click()
		const tagRow = page.locator('main .watch-table tr', { hasText: '#sunset' })
		await tagRow.locator('button', { hasText: 'Run now' }).click()
		await tagRow.filter({ hasText: '2 snapshots' }).waitFor()
		await page.locator('main [data-list="entered"] h3').waitFor()
		const tagDiff = await api(`/api/watches/${tag.id}/diff`)
		for (const [list, title] of [
			['entered', 'Entered the top posts'],
			['left', 'Left the top posts']
		] as const) {
			const posts = tagDiff.top_posts[list] as { url: string }[]
			expect(await page.locator(`main [data-list="${list}"] h3`).textContent()).toBe(
				`${title}: ${posts.length}`
			)
			const links = await page
				.locator(`main [data-list="${list}"] a`)
				.evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))
			for (const post of posts) expect(links).toContain(post.url)
		}
		expect(tagDiff.top_posts.entered.length + tagDiff.top_posts.left.length).toBeGreaterThan(0)
		expect(await page.locator('main .watch-diff', { hasText: 'no follower lists' }).count()).toBe(0)
		await page.locator('main .watch-diff').screenshot({ path: join(SCREENSHOT_DIR, 'watch-sunset-diff.png') })
		expect(foreign.urls).toEqual([])
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'a watch whose run failed shows the error inside its "Last run" column, not over the next ones',
	async () => {
		await open('watch')
		await page.locator('main input[name="target"]').fill(DEMO_PRESETS.missing.username)
		await page.locator('main form button[type=submit]').click()
		// Instagram knows no such account: the page asks before adding it; Cancel adds nothing.
		const dialog = page.getByRole('dialog', { name: `No account @${DEMO_PRESETS.missing.username}` })
		await dialog.waitFor()
		expect(await dialog.locator('.dialog-message').textContent()).toStartWith(
			'Instagram knows no account by this name: check the spelling.'
		)
		await dialog.locator('button', { hasText: 'Cancel' }).click()
		const targets = (await api('/api/watches')).map((watch: { target: string }) => watch.target)
		expect(targets).not.toContain(DEMO_PRESETS.missing.username)
		await page.locator('main form button[type=submit]').click()
		await dialog.locator('button', { hasText: 'Add anyway' }).click()
		const status = page
			.locator('main .watch-table tbody tr', { hasText: `@${DEMO_PRESETS.missing.username}` })
			.locator('.tag-error')
		await status.waitFor()
		expect(await status.textContent()).toContain('User not found')
		const [cellRight, statusRight] = await status.evaluate((element) => [
			(element.parentElement as HTMLElement).getBoundingClientRect().right,
			element.getBoundingClientRect().right
		])
		expect(statusRight).toBeLessThanOrEqual(cellRight)
		await page.locator('main .watch-list').screenshot({ path: join(SCREENSHOT_DIR, 'watch-failed-run.png') })
		expect(foreign.urls).toEqual([])
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'Analytics and Watch refuse an empty account in the form, with no request sent',
	async () => {
		const sent: string[] = []
		const onRequest = (request: { method(): string; url(): string }) =>
			sent.push(`${request.method()} ${new URL(request.url()).pathname}`)
		page.on('request', onRequest)
		await open('analytics')
		await page.locator('main input[name="username"]').fill('  ')
		await page.locator('main form button[type=submit]').click()
		await open('watch')
		for (const value of ['', ' # ']) {
			await page.locator('main input[name="target"]').fill(value)
			await page.locator('main form button[type=submit]').click()
		}
		// An answer to anything sent before this request would have arrived by now.
		await page.evaluate(() => fetch('/api/status'))
		page.off('request', onRequest)
		// Opening Watch lists the watches; nothing is analysed and no watch is added.
		expect(
			sent.filter((request) => request.includes('/api/analytics/') || request === 'POST /api/watches')
		).toEqual([])
		expect(
			await page
				.locator('main input[name="target"]')
				.evaluate((input: HTMLInputElement) => input.validity.valid)
		).toBe(false)
		expect(await page.locator('.toast', { hasText: 'Could not add the watch' }).count()).toBe(0)
	},
	BROWSER_TIMEOUT
)

test(
	'Analytics shows the account asked for last, even when an earlier answer arrives after it',
	async () => {
		// luna.explorer's profile answers slowly; mega.travel, asked for next, answers first.
		simulator.faults.set({
			kind: 'latency',
			latencyMs: 1500,
			times: 1,
			pathPattern: 'username=luna\\.explorer'
		})
		await open('analytics')
		const slow = page.waitForResponse((response) =>
			response.url().includes('/api/analytics/profile/luna.explorer')
		)
		await page.locator('main input[name="username"]').fill('luna.explorer')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .analytics-result[aria-busy="true"]').waitFor()
		expect(await page.locator('main .analytics-result').textContent()).toBe('Analysing @luna.explorer…')
		await page.locator('main input[name="username"]').fill('mega.travel')
		await page.locator('main form button[type=submit]').click()
		await page.locator('main .analytics-result .section-title', { hasText: '@mega.travel' }).waitFor()
		await (await slow).finished()
		// Let the page handle the late answer before looking.
		await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)))
		simulator.faults.clear()
		expect(await page.locator('main .analytics-result h2.section-title').allTextContents()).toEqual([
			'@mega.travel · Mega Travel'
		])
		expect(await page.locator('main .analytics-result').getAttribute('aria-busy')).toBe('false')
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'a double click on "Add watch" adds the watch once; on "Run now" it takes one snapshot',
	async () => {
		const posts: string[] = []
		const onRequest = (request: { method(): string; url(): string }) => {
			if (request.method() === 'POST') posts.push(new URL(request.url()).pathname)
		}
		page.on('request', onRequest)
		// Each snapshot of #coffee takes a moment: both clicks land while the first is on its way.
		simulator.faults.set({ kind: 'latency', latencyMs: 500, pathPattern: 'coffee' })
		await open('watch')
		await page.locator('main input[name="target"]').fill('#coffee')
		await page.locator('main form button[type=submit]').dblclick()
		const row = page.locator('main .watch-table tbody tr', { hasText: '#coffee' })
		await row.filter({ hasText: '1 snapshot' }).waitFor()
		await row.locator('button', { hasText: 'Run now' }).dblclick()
		await row.filter({ hasText: '2 snapshots' }).waitFor()
		simulator.faults.clear()
		page.off('request', onRequest)
		expect(posts.filter((path) => path === '/api/watches')).toHaveLength(1)
		expect(posts.filter((path) => /^\/api\/watches\/\d+\/run$/.test(path))).toHaveLength(2)
		expect(await page.locator('.toast', { hasText: 'Already watched' }).count()).toBe(0)
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'deleting a watch asks first, as deleting a job or a saved file does',
	async () => {
		await open('watch')
		const row = page.locator('main .watch-table tbody tr', { hasText: '#coffee' })
		await row.locator('button', { hasText: 'Delete' }).click()
		const dialog = page.getByRole('dialog', { name: 'Delete the watch of #coffee?' })
		// A hashtag watch keeps no follower lists, so the question names none.
		expect(await dialog.locator('.dialog-message').textContent()).toBe(
			'Its 2 snapshots are deleted too. This cannot be undone.'
		)
		await dialog.locator('button', { hasText: 'Cancel' }).click()
		expect(await row.count()).toBe(1)
		await row.locator('button', { hasText: 'Delete' }).dblclick()
		await dialog.locator('button', { hasText: 'Delete' }).click()
		await row.waitFor({ state: 'detached' })
		const watches = (await api('/api/watches')) as { target: string }[]
		expect(watches.map((watch) => watch.target)).not.toContain('coffee')
		expect(await page.locator('.toast', { hasText: 'Could not delete' }).count()).toBe(0)
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)

test(
	'on a phone the watch list fits: each watch a card with its status named and its buttons in view',
	async () => {
		await page.setViewportSize({ width: 390, height: 844 })
		try {
			await open('watch')
			const rows = page.locator('main .watch-table tbody tr')
			await rows.first().waitFor()
			expect(await rows.count()).toBeGreaterThan(0)
			const scroll = await page.locator('main .watch-table').evaluate((table) => ({
				width: table.parentElement?.scrollWidth,
				room: table.parentElement?.clientWidth
			}))
			expect(scroll.width).toBeLessThanOrEqual(scroll.room as number)
			for (const row of await rows.all()) {
				for (const name of ['Run now', 'Delete']) {
					const box = await row.locator('button', { hasText: name }).boundingBox()
					expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
				}
				// Without the column headings the status says it is the last run's.
				const label = await row
					.locator('td')
					.nth(3)
					.evaluate((cell) => getComputedStyle(cell, '::before').content)
				expect(label).toBe('"last run: "')
			}
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'watch-list-390.png'), fullPage: true })
		} finally {
			await page.setViewportSize({ width: 1280, height: 900 })
		}
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)
