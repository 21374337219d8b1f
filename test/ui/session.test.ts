/**
 * The session in Chromium, on a playground for a real account (not demo mode) over the simulator:
 * connect by pasting a cookies.txt, see the session badge; the simulator expires the session, the
 * next call flips the badge to expired and the banner says how to reconnect; reconnect by upload.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { InstagramClient } from '../../src/client/client'
import { createPlaygroundApp } from '../../src/playground/app'
import { uiPublicPaths } from '../../src/playground/ui'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	expectCleanPage,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	runAction,
	SCREENSHOT_DIR,
	temporaryDirectory,
	watchPage
} from '../support/browser'
import { DEMO_SECRETS, demoCookiesTxt } from '../support/demo-cookies'

let simulator: Simulator
let server: ReturnType<typeof Bun.serve>
let folder: Awaited<ReturnType<typeof temporaryDirectory>>
let browser: Browser
let page: Page
let foreign: ForeignRequests
let watch: PageWatch
let origin: string

beforeAll(async () => {
	;[simulator, folder, browser] = await Promise.all([
		startSimulator({ port: 0, host: '127.0.0.1' }),
		temporaryDirectory('smkit-ui-session-'),
		launchBrowser()
	])
	// As `smkit playground` with an empty .env and SMKIT_UPSTREAM_URL naming the simulator.
	const app = createPlaygroundApp({
		ig: new InstagramClient({ baseURL: simulator.url }),
		savedDir: join(folder.path, 'saved'),
		envPath: join(folder.path, '.env'),
		log: () => {},
		security: { host: '127.0.0.1', publicPaths: uiPublicPaths() }
	})
	server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	origin = `http://127.0.0.1:${server.port}`
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
	foreign = await blockForeignRequests(context)
	page = await context.newPage()
	watch = watchPage(page)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await simulator?.stop()
	await folder?.remove()
}, BROWSER_TIMEOUT)

const badge = () => page.locator('#badges .badge-session')
const banner = () => page.locator('#banner')

describe('the session in the page', () => {
	test(
		'connect by pasting cookies.txt: the badge names the account and the session is stored 0600',
		async () => {
			await page.goto(`${origin}/#account/me`)
			await banner().locator('button', { hasText: 'Connect account' }).waitFor()
			expect(await badge().textContent()).toBe('Not logged in')
			await banner().locator('button', { hasText: 'Connect account' }).click()
			const dialog = page.locator('dialog.dialog[open]')
			await dialog.locator('textarea[name="cookies"]').fill(demoCookiesTxt())
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'session-connect-dialog.png') })
			await dialog.locator('button[type=submit]').click()
			await page.locator('.toast', { hasText: 'Connected as @smkit_demo' }).waitFor()
			await page.locator('#badges .badge-session[data-session="valid"]').waitFor()
			expect(await badge().textContent()).toBe('@smkit_demo')
			expect(await banner().isHidden()).toBe(true)
			const stored = readFileSync(join(folder.path, '.env'), 'utf8')
			expect(
				stored
					.trim()
					.split('\n')
					.map((line) => line.split('=')[0])
			).toEqual(['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID'])
			expect(statSync(join(folder.path, '.env')).mode & 0o777).toBe(0o600)
			const result = await runAction(page, 'me')
			expect(await result.textContent()).toContain('smkit_demo')
		},
		BROWSER_TIMEOUT
	)

	test(
		'the simulator expires the session: the next call flips the badge to expired and the banner says how to reconnect',
		async () => {
			await fetch(`${simulator.url}/__sim/session`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ state: 'expired' })
			})
			const result = await runAction(page, 'blocked')
			expect(await result.textContent()).toContain('login_required')
			await page.locator('#badges .badge-session[data-session="expired"]').waitFor()
			expect(await badge().textContent()).toBe('Session expired')
			const hint = await banner().textContent()
			expect(hint).toContain('Instagram session expired.')
			expect(hint).toContain('To reconnect, log in to instagram.com in your browser, export its cookies')
			expect(hint).toContain('smkit login --cookies cookies.txt')
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'session-expired-banner.png') })
		},
		BROWSER_TIMEOUT
	)

	test(
		'reconnect by uploading the file: the banner goes away and calls work again',
		async () => {
			simulator.session.set('valid')
			const file = join(folder.path, 'cookies.txt')
			writeFileSync(file, demoCookiesTxt())
			await banner().locator('button', { hasText: 'Reconnect account' }).click()
			const dialog = page.locator('dialog.dialog[open]')
			await dialog.locator('input[type=file]').setInputFiles(file)
			await dialog.locator('button[type=submit]').click()
			await page.locator('#badges .badge-session[data-session="valid"]').waitFor()
			expect(await banner().isHidden()).toBe(true)
			const result = await runAction(page, 'blocked')
			expect(await result.getAttribute('aria-busy')).toBe('false')
			expect(await result.textContent()).not.toContain('login_required')
		},
		BROWSER_TIMEOUT
	)

	test(
		'a call Instagram still answers but with the session ended (profile lookup): the banner appears at once',
		async () => {
			simulator.session.set('expired')
			await page.goto(`${origin}/#users/username`)
			await page.locator('main .panel-title').waitFor()
			const result = await runAction(page, 'username')
			expect(await result.textContent()).toContain('luna.explorer')
			// From the answer's header, not from the status polled every 15 s.
			await page.locator('#badges .badge-session[data-session="expired"]').waitFor({ timeout: 5000 })
			expect(await banner().textContent()).toContain('Instagram session expired.')
			simulator.session.set('valid')
			const check = await fetch(`${origin}/api/session/check`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}'
			})
			expect(check.status).toBe(200)
		},
		BROWSER_TIMEOUT
	)

	test(
		'refused cookies keep the dialog open with the reason; the page never holds a cookie value',
		async () => {
			simulator.session.set('expired')
			await page.locator('#badges button', { hasText: 'Connect account' }).click()
			const dialog = page.locator('dialog.dialog[open]')
			await dialog.locator('textarea[name="cookies"]').fill(demoCookiesTxt())
			await dialog.locator('button[type=submit]').click()
			await dialog.locator('.connect-error', { hasText: 'Instagram does not accept this session' }).waitFor()
			await dialog.locator('button', { hasText: 'Cancel' }).click()
			await page.locator('dialog').waitFor({ state: 'detached' })
			simulator.session.set('valid')
			const html = await page.content()
			for (const secret of DEMO_SECRETS) expect(html).not.toContain(secret)
			expectCleanPage({ foreign, watch })
		},
		BROWSER_TIMEOUT
	)
})
