/**
 * The browser UI hook (placeholder). The UI work replaces this file: `uiRoutes(context)` must return
 * an Elysia instance serving `GET /` and its assets (embedded with `with { type: 'file' }`). It is
 * mounted after the app's hooks, so errors become envelopes; paths outside /api/ are not recorded.
 */
import { Elysia } from 'elysia'
import type { PlaygroundContext } from './app'

const page = (demo: boolean) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>smkit playground</title></head>
<body>
<h1>smkit playground</h1>
${demo ? '<p><strong>Demo data</strong></p>' : ''}
<p>The browser UI is coming. Meanwhile the JSON API is under <code>/api/</code>; see the
<a href="/openapi">API reference</a>.</p>
</body>
</html>
`

/** Routes of the browser UI. */
export const uiRoutes = ({ deps }: PlaygroundContext) =>
	new Elysia().get(
		'/',
		() => new Response(page(Boolean(deps.demo)), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
		{ detail: { hide: true } }
	)

/** GET paths of the UI that need no access token (the page shell reads `?token=` itself). */
export const uiPublicPaths = (): string[] => ['/']
