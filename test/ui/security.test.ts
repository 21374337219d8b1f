/**
 * Hostile data in Chromium: xss.payload's name, bio, links, captions, a comment and a direct
 * message carry HTML and script payloads. They must show as text: no script runs (`window.__xss`
 * stays undefined, no dialog opens), no element comes from them, no `javascript:` link exists.
 * Also: the page's security headers, and a server that requires an access token.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { sanitizeName } from '../../src/playground/saved-names'
import { DEMO_PRESETS, XSS_PAYLOADS } from '../../src/simulator/presets'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	type DemoPlayground,
	openPanel,
	runAction,
	startDemoPlayground,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser()

/** Fails when anything from a payload became markup or ran. */
async function expectInert(): Promise<void> {
	const findings = await ui.page.evaluate(() => ({
		xss: (window as unknown as { __xss?: unknown }).__xss,
		// Elements the payloads would create if parsed as HTML.
		injected: document.querySelectorAll('img[src="x"], svg[onload], main script, body > script:not([src])')
			.length,
		handlers: [...document.querySelectorAll('*')].filter((element) =>
			[...element.attributes].some((attribute) => attribute.name.startsWith('on'))
		).length,
		javascriptLinks: [...document.querySelectorAll('a[href], img[src]')].filter((element) =>
			/^\s*javascript:/i.test(element.getAttribute('href') ?? element.getAttribute('src') ?? '')
		).length
	}))
	expect(findings).toEqual({ xss: undefined, injected: 0, handlers: 0, javascriptLinks: 0 })
}

/** Runs an endpoint with the given field values and waits for its result. */
async function run(panel: string, action: string, values: Record<string, string>) {
	await openPanel(ui.page, ui.playground, `${panel}/${action}`)
	for (const [name, value] of Object.entries(values))
		await ui.page.locator(`main input[name="${name}"]`).fill(value)
	return runAction(ui.page, action)
}

describe('hostile data renders as text', () => {
	test(
		"xss.payload's profile: name and bio appear verbatim in the card, table, tree and raw views",
		async () => {
			const result = await run('users', 'username', { username: DEMO_PRESETS.xss.username })
			expect(await result.locator('.summary-card .card-name').textContent()).toBe(XSS_PAYLOADS.imgOnerror)
			expect(await result.locator('.summary-card .card-text').textContent()).toContain(XSS_PAYLOADS.script)
			expect(await result.locator('.summary-card .card-text').textContent()).toContain(XSS_PAYLOADS.svgOnload)
			// Its external_url is a javascript: URL: no link is made of it.
			expect(await result.locator('.summary-card .card-link').count()).toBe(0)
			// The table shows strings as they are; the tree and raw views show them as JSON literals.
			for (const [view, shown] of [
				['Table', XSS_PAYLOADS.imgOnerror],
				['Tree', JSON.stringify(XSS_PAYLOADS.imgOnerror)],
				['Raw', JSON.stringify(XSS_PAYLOADS.imgOnerror)]
			]) {
				await result.locator('[role=tab]', { hasText: view }).click()
				expect(await result.locator('.result-body').textContent()).toContain(shown)
				await expectInert()
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'full profile, parsed bio and public profile',
		async () => {
			for (const [panel, action] of [
				['users', 'full'],
				['users', 'bio'],
				['public', 'profile']
			]) {
				const result = await run(panel, action, { username: DEMO_PRESETS.xss.username })
				expect(await result.locator('.result-status .tag').first().textContent()).toBe('200 OK')
				await result.locator('[role=tab]', { hasText: 'Tree' }).click()
				await result.locator('button', { hasText: 'Expand all' }).click()
				expect(await result.locator('.json-tree').textContent()).toContain(XSS_PAYLOADS.script)
				await expectInert()
			}
		},
		BROWSER_TIMEOUT
	)

	test(
		'captions in the user feed, in every view',
		async () => {
			const result = await run('feed', 'user', { user_pk: DEMO_PRESETS.xss.pk, count: '12' })
			for (const view of ['Table', 'Tree', 'Images', 'Raw']) {
				await result.locator('[role=tab]', { hasText: view }).click()
				if (view === 'Tree') await result.locator('button', { hasText: 'Expand all' }).click()
				await expectInert()
			}
			await result.locator('[role=tab]', { hasText: 'Raw' }).click()
			const raw = (await result.locator('.raw-json').textContent()) ?? ''
			expect(raw).toContain('window.__xss=1')
		},
		BROWSER_TIMEOUT
	)

	test(
		'each hostile post, and the hostile comment',
		async () => {
			for (const mediaPk of DEMO_PRESETS.xssMediaPks) {
				const result = await run('media', 'info', { media_pk: mediaPk })
				expect(await result.locator('.summary-card .card-text').textContent()).toContain('window.__xss=1')
				await expectInert()
			}
			const comments = await run('media', 'comments', { media_pk: DEMO_PRESETS.xssMediaPks[0] })
			expect(await comments.locator('.result-body').textContent()).toContain(
				`${XSS_PAYLOADS.imgOnerror} nice pic`
			)
			await expectInert()
		},
		BROWSER_TIMEOUT
	)

	test(
		'the direct inbox, History and a saved file named after the payload',
		async () => {
			await run('direct', 'inbox', {})
			await ui.page.locator('main [role=tab]', { hasText: 'Tree' }).click()
			await ui.page.locator('main button', { hasText: 'Expand all' }).click()
			await expectInert()
			await run('users', 'search', { q: XSS_PAYLOADS.svgOnload })
			await openPanel(ui.page, ui.playground, 'history')
			await ui.page.locator('main .history-table').waitFor()
			await expectInert()
			await run('users', 'username', { username: DEMO_PRESETS.xss.username })
			await ui.page.locator('main .result-actions button', { hasText: 'Save' }).click()
			// A name with markup is taken, and the server keeps only its letters and digits.
			const markup = '<img src=x onerror=window.__xss=1>'
			const kept = sanitizeName(markup) as string
			expect(kept).toBe('img_src_x_onerror_window___xss_1')
			await ui.page.locator('dialog.dialog[open] input[name="name"]').fill(markup)
			await ui.page.locator('dialog.dialog[open] button[type=submit]').click()
			await ui.page.locator('.toast', { hasText: kept }).waitFor()
			await expectInert()
			await openPanel(ui.page, ui.playground, 'saved')
			await ui.page
				.locator('main .saved-table tbody tr', { hasText: kept })
				.locator('button', { hasText: 'View' })
				.click()
			await ui.page.locator('main .result .json-tree').waitFor()
			await expectInert()
		},
		BROWSER_TIMEOUT
	)

	test(
		'no script ran, no dialog opened, nothing left 127.0.0.1',
		() => {
			expect(ui.watch.dialogs).toEqual([])
			expect(ui.watch.errors).toEqual([])
			expect(ui.foreign.urls).toEqual([])
		},
		BROWSER_TIMEOUT
	)
})

describe('page headers', () => {
	test(
		'the page and its files are served with a CSP that forbids inline script and framing',
		async () => {
			const response = await fetch(ui.playground.url)
			expect(response.headers.get('content-type')).toStartWith('text/html')
			const policy = response.headers.get('content-security-policy') ?? ''
			expect(policy).toContain("script-src 'self'")
			expect(policy).toContain("frame-ancestors 'none'")
			expect(response.headers.get('referrer-policy')).toBe('no-referrer')
			const html = await response.text()
			const assets = [...html.matchAll(/(?:src|href)="((?:\.?\/)[^"]+\.(?:js|css))"/g)].map(
				(match) => match[1]
			)
			expect(assets.length).toBeGreaterThanOrEqual(2)
			for (const asset of assets) {
				const file = await fetch(new URL(asset, ui.playground.url))
				expect(file.status).toBe(200)
				expect(file.headers.get('x-content-type-options')).toBe('nosniff')
			}
		},
		BROWSER_TIMEOUT
	)
})

describe("the tests' own guard", () => {
	test(
		"a request beyond 127.0.0.1 is blocked and recorded; the page's own requests pass untouched",
		async () => {
			const context = await ui.browser.newContext()
			const blocked = await blockForeignRequests(context)
			const page = await context.newPage()
			// The page's own content security policy stops its fetches beyond 127.0.0.1 before they are
			// requests; a navigation is one, and the guard must catch it.
			const own = await page.goto(ui.playground.url)
			expect(own?.status()).toBe(200)
			const away = await page.goto('http://example.invalid/x').then(
				() => 'reached',
				(error: Error) => error.message
			)
			expect(away).toContain('net::ERR_BLOCKED_BY_CLIENT')
			expect(blocked.urls).toEqual(['http://example.invalid/x'])
			await context.close()
		},
		BROWSER_TIMEOUT
	)
})

describe('access token', () => {
	let guarded: DemoPlayground

	beforeAll(async () => {
		guarded = await startDemoPlayground({ token: 'ui-test-token-123' })
	}, BROWSER_TIMEOUT)
	afterAll(async () => {
		await guarded?.stop()
	}, BROWSER_TIMEOUT)

	test(
		'the page keeps ?token= and sends it as a Bearer header on every API request',
		async () => {
			const tokenPage = await ui.context.newPage()
			const authorizations: (string | undefined)[] = []
			tokenPage.on('request', (request) => {
				if (new URL(request.url()).pathname.startsWith('/api/'))
					authorizations.push(request.headers().authorization)
			})
			await tokenPage.goto(`${guarded.url}#users`)
			await tokenPage.locator('.badge-demo').waitFor()
			await tokenPage.locator('main .action-form button[type=submit]').click()
			await tokenPage.locator('main .result[aria-busy="false"] .summary-card').waitFor()
			expect(authorizations.length).toBeGreaterThanOrEqual(2)
			expect(new Set(authorizations)).toEqual(new Set(['Bearer ui-test-token-123']))
			await tokenPage.close()
		},
		BROWSER_TIMEOUT
	)

	test(
		"a job's records download through a link that carries the token (the browser streams the file to disk)",
		async () => {
			const auth = { authorization: 'Bearer ui-test-token-123', 'content-type': 'application/json' }
			const started = await fetch(`${guarded.origin}/api/jobs`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({ kind: 'followers', target: 'luna.explorer' })
			}).then((response) => response.json())
			const id = started.data.id
			let collected = 0
			for (let tries = 0; tries < 200 && collected === 0; tries++) {
				const job = await fetch(`${guarded.origin}/api/jobs/${id}`, { headers: auth }).then((r) => r.json())
				if (job.data.status === 'done') collected = job.data.collected
				else await Bun.sleep(50)
			}
			expect(collected).toBeGreaterThan(200)
			const context = await ui.browser.newContext({ acceptDownloads: true })
			const tokenPage = await context.newPage()
			await tokenPage.goto(`${guarded.url}#jobs`)
			const [download] = await Promise.all([
				tokenPage.waitForEvent('download'),
				tokenPage.getByRole('button', { name: `Download job ${id} as CSV` }).click()
			])
			expect(download.suggestedFilename()).toBe(`job-${id}-followers-luna.explorer.csv`)
			const text = await readFile((await download.path()) as string, 'utf8')
			// The byte order mark, the header, then one line per follower.
			expect(text.startsWith('\uFEFFpk,')).toBe(true)
			expect(text.trimEnd().split('\n')).toHaveLength(1 + collected)
			await context.close()
		},
		BROWSER_TIMEOUT
	)

	test(
		'without the token the page says how to get in',
		async () => {
			const tokenPage = await ui.context.newPage()
			await tokenPage.goto(`${guarded.origin}/#users`)
			const banner = tokenPage.locator('#banner')
			await banner.waitFor()
			expect(await banner.textContent()).toContain('access token')
			await tokenPage.close()
		},
		BROWSER_TIMEOUT
	)
})
