/**
 * The browser UI (assets/playground/): `GET /` and the page's script and stylesheet, embedded in
 * the binary. The page is a Bun HTML import, which `bun build --compile` bundles (TypeScript, CSS
 * imports) and embeds; its `files` list then names every output inside `/$bunfs/`, so the binary
 * serves the UI from any working directory. Run from source (`bun run`, `bun test`) the import is
 * only a path, so the same sources are bundled once per process with `Bun.build`, in memory.
 * Served here rather than as a Bun.serve static route so the app's guards and error envelopes
 * apply and `app.handle()` tests see the page too.
 */
import { basename } from 'node:path'
import { Elysia, NotFoundError } from 'elysia'
import page from '../../assets/playground/index.html'
import type { PlaygroundContext } from './app'

/** One file of the UI, ready to send. */
interface UiAsset {
	body: Blob
	type: string
	etag: string
	/** Content-hashed names never change meaning, so browsers may keep them. */
	immutable: boolean
}

// Names the from-source bundle gets (fixed, so the route list is known before bundling).
const sourceNaming = { entry: '[name].[ext]', chunk: 'ui-[name].[ext]', asset: 'ui-[name].[ext]' }
const sourceAssetPaths = ['/ui-index.js', '/ui-index.css']

/**
 * Defence in depth for the page (it also carries a meta CSP): only this origin's scripts, styles
 * and API; images from the data (http/https/data); never framed.
 */
const securityHeaders = {
	'content-security-policy':
		"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: http: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'no-referrer',
	'x-frame-options': 'DENY'
}

let loading: Promise<Map<string, UiAsset>> | null = null

/** The UI files by URL path (`/` is the page). Built once; embedded files need no build. */
export function loadUiAssets(): Promise<Map<string, UiAsset>> {
	loading ??= page.files ? Promise.resolve(embeddedAssets(page.files)) : bundleFromSource()
	return loading
}

function embeddedAssets(files: NonNullable<typeof page.files>): Map<string, UiAsset> {
	const assets = new Map<string, UiAsset>()
	for (const file of files) {
		const isPage = file.loader === 'html'
		assets.set(isPage ? '/' : `/${basename(file.path)}`, {
			body: Bun.file(file.path),
			type: file.headers['content-type'],
			etag: `"${file.headers.etag}"`,
			immutable: !isPage
		})
	}
	return assets
}

async function bundleFromSource(): Promise<Map<string, UiAsset>> {
	const result = await Bun.build({ entrypoints: [page.index], naming: sourceNaming, target: 'browser' })
	if (!result.success) throw new AggregateError(result.logs, 'bundling the playground UI failed')
	const assets = new Map<string, UiAsset>()
	for (const output of result.outputs) {
		const isPage = output.path.endsWith('.html')
		const path = isPage ? '/' : `/${basename(output.path)}`
		// The routes are registered from `sourceAssetPaths` before bundling; a new output needs a name there.
		if (!isPage && !sourceAssetPaths.includes(path)) throw new Error(`unexpected UI bundle output ${path}`)
		const body = new Blob([await output.arrayBuffer()])
		assets.set(path, {
			body,
			type: output.type,
			etag: `"${Bun.hash(await body.arrayBuffer()).toString(36)}"`,
			immutable: false
		})
	}
	return assets
}

/** GET paths of the UI: the page and its files. Static and secret-free, so they may skip the token. */
export function uiPublicPaths(): string[] {
	if (page.files) return [...embeddedAssets(page.files).keys()]
	return ['/', ...sourceAssetPaths]
}

async function serveAsset(path: string, request: Request): Promise<Response> {
	const asset = (await loadUiAssets()).get(path)
	if (!asset) throw new NotFoundError()
	const headers: Record<string, string> = {
		'content-type': asset.type,
		etag: asset.etag,
		'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
		...securityHeaders
	}
	if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers })
	return new Response(asset.body, { headers })
}

/** Routes of the browser UI: `GET /` and the page's assets (hidden from the API reference). */
export const uiRoutes = (_context: PlaygroundContext) => {
	const app = new Elysia({ name: 'playground-ui' })
	for (const path of uiPublicPaths()) {
		app.get(path, ({ request }) => serveAsset(path, request), { detail: { hide: true } })
	}
	return app
}
