/**
 * Browser-test support: Debian's Chromium driven by playwright-core (never a downloaded browser),
 * a guard that aborts and records every request leaving 127.0.0.1, and a demo playground
 * (simulator + playground app) listening on loopback port 0.
 */

import { afterAll, beforeAll, expect } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
	type Browser,
	type BrowserContext,
	type BrowserContextOptions,
	chromium,
	type Page
} from 'playwright-core'
import type { ClientOptions } from '../../src/client/client'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { JobManager } from '../../src/jobs/manager'
import { OUTSIDE_OWNERS } from '../../src/jobs/outside'
import type { JobStore } from '../../src/jobs/store'
import { createPlaygroundApp } from '../../src/playground/app'
import { uiPublicPaths } from '../../src/playground/ui'
import { type Simulator, startSimulator } from '../../src/simulator/server'

/** Where Debian (and CI) install Chromium. */
export const CHROMIUM_PATH = process.env.SMKIT_CHROMIUM ?? '/usr/bin/chromium'

/** Launches headless Chromium with everything that would phone home switched off. */
export function launchBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM_PATH,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync'
		]
	})
}

/** Requests a page tried to send beyond loopback (all aborted). */
export interface ForeignRequests {
	urls: string[]
}

/**
 * Every URL not to 127.0.0.1. A pattern rather than a function: Playwright then intercepts only the
 * requests it matches, where a function has every request of the page routed through the test
 * process (slower, and more protocol objects in flight while pages change).
 */
const FOREIGN_URL = /^(?!(?:https?|wss?):\/\/127\.0\.0\.1(?::\d+)?\/)/

/**
 * Aborts every request of `context` that is not to 127.0.0.1 and records its URL; `data:` and
 * `blob:` URLs never reach the router. Call before opening pages.
 */
export async function blockForeignRequests(context: BrowserContext): Promise<ForeignRequests> {
	const foreign: ForeignRequests = { urls: [] }
	await context.route(FOREIGN_URL, async (route) => {
		foreign.urls.push(route.request().url())
		await route.abort('blockedbyclient')
	})
	return foreign
}

/** What a page did that a test may want to assert on. */
export interface PageWatch {
	/** Uncaught exceptions and console errors (other than failed HTTP answers). */
	errors: string[]
	/** Messages of alert/confirm/prompt dialogs (each dismissed). */
	dialogs: string[]
}

/** Records page errors and dismisses (and records) any JavaScript dialog. */
export function watchPage(page: Page): PageWatch {
	const watch: PageWatch = { errors: [], dialogs: [] }
	page.on('pageerror', (error) => watch.errors.push(error.message))
	page.on('console', (message) => {
		// Chromium logs every non-2xx answer; error answers are part of the tests, not script errors.
		if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
			watch.errors.push(message.text())
		}
	})
	page.on('dialog', (dialog) => {
		watch.dialogs.push(dialog.message())
		void dialog.dismiss()
	})
	return watch
}

/** A temporary directory removed by the returned function. */
export async function temporaryDirectory(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
	const path = await mkdtemp(join(tmpdir(), prefix))
	return { path, remove: () => rm(path, { recursive: true, force: true }) }
}

/** Folder for screenshots (git-ignored). */
export const SCREENSHOT_DIR = join(import.meta.dir, '..', '..', 'test-artifacts', 'screenshots')

/** A demo playground on loopback: the simulator, the playground app, and a temporary saved folder. */
export interface DemoPlayground {
	/** Page URL, e.g. `http://127.0.0.1:40123/` (with `?token=` when a token is required). */
	url: string
	origin: string
	simulator: Simulator
	savedDir: string
	stop(): Promise<void>
}

/**
 * Starts the simulator and a demo playground in-process, both on 127.0.0.1 port 0, as
 * `smkit playground --demo` does. With `token`, every request needs it except the UI's own files;
 * with `loggedOut`, the client has no session; `clientOptions` go to the demo client (budgets).
 */
export async function startDemoPlayground(
	options: {
		token?: string
		loggedOut?: boolean
		clientOptions?: ClientOptions
		/** A job store the playground shares with `smkit collect` and the MCP server, as `serve` sets it up. */
		sharedJobs?: JobStore
		/** The Watch panel's "Advance demo time by a day": a simulator that takes a control token. */
		demoClock?: boolean
	} = {}
): Promise<DemoPlayground> {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1', controlToken: options.demoClock })
	const saved = await temporaryDirectory('smkit-ui-saved-')
	// Logged out: the same simulator without the demo session, as with an empty .env file.
	const ig = createDemoClient(simulator.url, {
		...options.clientOptions,
		...(options.loggedOut ? { credentials: undefined } : {})
	})
	const app = createPlaygroundApp({
		ig,
		...(options.sharedJobs
			? { jobs: new JobManager({ jobs: options.sharedJobs, ig, shows: OUTSIDE_OWNERS }) }
			: {}),
		demo: true,
		...(options.demoClock ? { demoClock: simulatorClock(simulator.url, simulator.controlToken) } : {}),
		demoPictures: simulator.url,
		savedDir: saved.path,
		log: () => {},
		security: { host: '127.0.0.1', token: options.token, publicPaths: uiPublicPaths() }
	})
	const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	const origin = `http://127.0.0.1:${server.port}`
	return {
		url: options.token ? `${origin}/?token=${encodeURIComponent(options.token)}` : `${origin}/`,
		origin,
		simulator,
		savedDir: saved.path,
		async stop() {
			await server.stop(true)
			await simulator.stop()
			await saved.remove()
		}
	}
}

/** Chromium and the demo servers start in beforeAll; a whole panel sweep takes a while on 2 cores. */
export const BROWSER_TIMEOUT = 120_000

/** A demo playground with one Chromium page on it: foreign requests blocked, errors and dialogs watched. */
export interface DemoBrowser {
	playground: DemoPlayground
	browser: Browser
	context: BrowserContext
	page: Page
	foreign: ForeignRequests
	watch: PageWatch
}

/**
 * Starts a demo playground (with `options.playground`) and Chromium side by side and opens a
 * 1280 x 900 page (`contextOptions` add to that); `permissions` are granted for the playground's origin.
 */
export async function openDemoBrowser(
	contextOptions: BrowserContextOptions = {},
	options: { permissions?: string[]; playground?: Parameters<typeof startDemoPlayground>[0] } = {}
): Promise<DemoBrowser> {
	const [playground, browser] = await Promise.all([startDemoPlayground(options.playground), launchBrowser()])
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions })
	if (options.permissions) await context.grantPermissions(options.permissions, { origin: playground.origin })
	const foreign = await blockForeignRequests(context)
	const page = await context.newPage()
	return { playground, browser, context, page, foreign, watch: watchPage(page) }
}

/** Closes what `openDemoBrowser` started (whatever of it did start). */
export async function closeDemoBrowser(session: {
	browser?: Browser
	playground?: DemoPlayground
}): Promise<void> {
	await session.browser?.close()
	await session.playground?.stop()
}

/**
 * A demo playground and a Chromium page for the tests of one file: opened before them (with
 * `openDemoBrowser`'s options), closed after them. The object is filled in once they are open:
 * read its fields inside tests and hooks.
 */
export function useDemoBrowser(...options: Parameters<typeof openDemoBrowser>): DemoBrowser {
	const session = {} as DemoBrowser
	beforeAll(async () => {
		Object.assign(session, await openDemoBrowser(...options))
	}, BROWSER_TIMEOUT)
	afterAll(() => closeDemoBrowser(session), BROWSER_TIMEOUT)
	return session
}

/** Asserts no request left 127.0.0.1 and no script error or dialog happened on the page. */
export function expectCleanPage(session: { foreign: ForeignRequests; watch: PageWatch }): void {
	expect(session.foreign.urls).toEqual([])
	expect(session.watch.errors).toEqual([])
	expect(session.watch.dialogs).toEqual([])
}

/** The page URL of a panel (keeps a `?token=` query in front of the hash). */
export function panelUrl(playground: DemoPlayground, panel: string): string {
	return `${playground.url}#${panel}`
}

/** Opens a panel by deep link and waits for its heading. */
export async function openPanel(page: Page, playground: DemoPlayground, panel: string): Promise<void> {
	await page.goto(panelUrl(playground, panel))
	await page.locator('main .panel-title').waitFor()
}

/**
 * Selects an endpoint tab of the open data panel, presses Run, and waits until the result area is
 * no longer busy. Returns the result area.
 */
export async function runAction(page: Page, actionId: string) {
	await page.locator(`.action-tabs [data-action="${actionId}"], main .action-form`).first().waitFor()
	const tab = page.locator(`.action-tabs [data-action="${actionId}"]`)
	if ((await tab.count()) > 0) await tab.click()
	await page.locator('main .action-form button[type=submit]').click()
	const result = page.locator('main .result[aria-busy="false"]')
	await result.waitFor()
	return result
}

/**
 * What has the keyboard focus: its tag, text, aria-label and aria-pressed, the column of the table
 * header it sits in, and whether it is a panel's result area.
 */
export function focusedElement(page: Page) {
	return page.evaluate(() => {
		const active = document.activeElement as HTMLElement | null
		return {
			tag: active?.tagName.toLowerCase() ?? null,
			text: active?.textContent?.trim() ?? '',
			label: active?.getAttribute('aria-label') ?? null,
			pressed: active?.getAttribute('aria-pressed') ?? null,
			column: active?.closest('th')?.dataset.column ?? null,
			isResult: active?.matches('main .result') ?? false
		}
	})
}
