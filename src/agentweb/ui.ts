/**
 * The chat page (assets/agentweb/), embedded in the binary. The page is a Bun HTML import: `bun
 * build --compile` bundles its script and styles and embeds them, and `page.files` names each
 * output inside `/$bunfs/`, so the binary serves the UI from any working directory. Run from
 * source (`bun run`, `bun test`) the import is only a path, so the sources are bundled once per
 * process in memory. Served through the app (not a Bun.serve static route) so the guards apply.
 */
import { basename } from 'node:path'
import { Elysia, NotFoundError } from 'elysia'
import page from '../../assets/agentweb/index.html'

/** One file of the UI, ready to send. */
interface UiAsset {
	body: Blob
	type: string
	etag: string
	immutable: boolean
}

// Fixed names for the from-source bundle, so the routes are known before bundling.
const sourceNaming = { entry: '[name].[ext]', chunk: 'chat-[name].[ext]', asset: 'chat-[name].[ext]' }
const sourceAssetPaths = ['/chat-index.js', '/chat-index.css']

/** Only this origin's scripts, styles and API; no images from elsewhere; never framed. */
const securityHeaders = {
	'content-security-policy':
		"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'no-referrer',
	'x-frame-options': 'DENY'
}

let loading: Promise<Map<string, UiAsset>> | null = null

function loadUiAssets(): Promise<Map<string, UiAsset>> {
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
	if (!result.success) throw new AggregateError(result.logs, 'bundling the chat UI failed')
	const assets = new Map<string, UiAsset>()
	for (const output of result.outputs) {
		const isPage = output.path.endsWith('.html')
		const path = isPage ? '/' : `/${basename(output.path)}`
		if (!isPage && !sourceAssetPaths.includes(path))
			throw new Error(`unexpected chat UI bundle output ${path}`)
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

/** GET paths of the chat UI (the page and its files): static, secret-free, served without the token. */
export function chatUiPaths(): string[] {
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

/** `GET /` (the chat page) and its script and stylesheet. */
export const chatUiRoutes = () => {
	const app = new Elysia({ name: 'agentweb-ui' })
	for (const path of chatUiPaths()) app.get(path, ({ request }) => serveAsset(path, request))
	return app
}
