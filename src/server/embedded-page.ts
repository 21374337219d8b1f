/**
 * A browser page served from inside the binary, shared by the playground UI and the agent web
 * chat. The page is a Bun HTML import: `bun build --compile` bundles its scripts and styles and
 * embeds them, and `page.files` names each output inside `/$bunfs/`, so the binary serves the UI
 * from any working directory. Run from source (`bun run`, `bun test`) the import is only a path,
 * so the sources are bundled once per process, in memory, under fixed names. Served through the
 * app rather than as a Bun.serve static route, so the app's guards and error envelopes apply and
 * `app.handle()` tests see the page too. Each server also answers `/favicon.ico`.
 */
import { basename } from 'node:path'
import type { HTMLBundle } from 'bun'
import { Elysia, NotFoundError } from 'elysia'

/**
 * Where the icon is served that browsers ask for on their own, for pages that name none (the API
 * reference); the UIs name theirs inline in their HTML.
 */
export const FAVICON_PATH = '/favicon.ico'

/** One file of the page, ready to send. */
interface PageAsset {
	body: Blob
	type: string
	etag: string
	/** Content-hashed names never change meaning, so browsers may keep them. */
	immutable: boolean
}

/** How one page is embedded and served. */
export interface EmbeddedPageOptions {
	/** Plugin name (Elysia deduplicates by it) and the label of build errors, e.g. `playground-ui`. */
	name: string
	/** Prefix of the from-source bundle's file names, e.g. `ui` gives `/ui-index.js`. */
	sourcePrefix: string
	/** CSP `img-src` sources, e.g. `'self' data:`. Everything else is this origin only. */
	imageSources: string
	/** Hide the routes from the OpenAPI reference. */
	hideFromReference?: boolean
	/** The icon file served at `/favicon.ico` (a path Bun.file opens, also inside the binary). */
	favicon: string
}

/** An embedded page: its GET paths (static and secret-free, so they may skip the token) and routes. */
export interface EmbeddedPage {
	paths(): string[]
	routes(): Elysia
}

/** Serves `page` (a Bun HTML import) and the files its bundle consists of. */
export function embedPage(page: HTMLBundle, options: EmbeddedPageOptions): EmbeddedPage {
	// Fixed from-source names, so the route list is known before bundling.
	const naming = {
		entry: '[name].[ext]',
		chunk: `${options.sourcePrefix}-[name].[ext]`,
		asset: `${options.sourcePrefix}-[name].[ext]`
	}
	const sourceAssetPaths = [`/${options.sourcePrefix}-index.js`, `/${options.sourcePrefix}-index.css`]
	// Defence in depth (the pages carry a meta CSP too): only this origin's scripts, styles and API; never framed.
	const securityHeaders = {
		'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${options.imageSources}; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
		'x-content-type-options': 'nosniff',
		'referrer-policy': 'no-referrer',
		'x-frame-options': 'DENY'
	}
	let loading: Promise<Map<string, PageAsset>> | null = null

	const embeddedAssets = (files: NonNullable<HTMLBundle['files']>) => {
		const assets = new Map<string, PageAsset>()
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

	const bundleFromSource = async () => {
		const result = await Bun.build({ entrypoints: [page.index], naming, target: 'browser' })
		if (!result.success) throw new AggregateError(result.logs, `bundling ${options.name} failed`)
		const assets = new Map<string, PageAsset>()
		for (const output of result.outputs) {
			const isPage = output.path.endsWith('.html')
			const path = isPage ? '/' : `/${basename(output.path)}`
			// The routes come from `sourceAssetPaths` before bundling; a new output needs a name there.
			if (!isPage && !sourceAssetPaths.includes(path))
				throw new Error(`unexpected ${options.name} bundle output ${path}`)
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

	const serveAsset = async (path: string, request: Request): Promise<Response> => {
		loading ??= page.files ? Promise.resolve(embeddedAssets(page.files)) : bundleFromSource()
		const asset = (await loading).get(path)
		if (!asset) throw new NotFoundError()
		const headers: Record<string, string> = {
			'content-type': asset.type,
			etag: asset.etag,
			'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
			...securityHeaders
		}
		if (request.headers.get('if-none-match') === asset.etag)
			return new Response(null, { status: 304, headers })
		return new Response(asset.body, { headers })
	}

	const pagePaths = () => (page.files ? [...embeddedAssets(page.files).keys()] : ['/', ...sourceAssetPaths])
	return {
		paths: () => [...pagePaths(), FAVICON_PATH],
		routes() {
			const app = new Elysia({ name: options.name })
			const hook = options.hideFromReference ? { detail: { hide: true } } : {}
			for (const path of pagePaths()) app.get(path, ({ request }) => serveAsset(path, request), hook)
			app.get(
				FAVICON_PATH,
				() =>
					new Response(Bun.file(options.favicon), {
						headers: { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400' }
					}),
				{ detail: { hide: true } }
			)
			return app
		}
	}
}
