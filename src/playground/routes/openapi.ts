/**
 * The API reference: the OpenAPI document at `/openapi/json` (built from the route table by
 * `openapi/document.ts`, rebuilt when routes are added) and the Scalar reference page at
 * `/openapi`. The page must work offline (one binary, no CDN): Scalar's standalone bundle,
 * vendored in vendor/scalar-api-reference/ (see vendor/README.md), is embedded in the executable
 * and served from `/openapi/scalar.js`; Scalar's web fonts, telemetry and hosted "Ask AI" agent
 * are switched off.
 */
import { ScalarRender } from '@elysiajs/openapi/scalar'
import { Elysia } from 'elysia'
import packageJson from '../../../package.json'
import scalarBundle from '../../../vendor/scalar-api-reference/standalone.js' with { type: 'file' }
import { urlOf } from '../../server/request-url'
import { buildOpenApiDocument, type DocumentedRoute, servedFrom } from '../openapi/document'
import { tagDescriptions } from '../openapi/tags'

/** Where the embedded Scalar bundle is served. */
export const SCALAR_SCRIPT_PATH = '/openapi/scalar.js'

/** Paths of the API reference, served without the access token (they reveal no data). */
export const OPENAPI_PUBLIC_PATHS = ['/openapi', '/openapi/json', SCALAR_SCRIPT_PATH] as const

/**
 * Headers of the reference pages, as strict as the UI's except that Scalar's page needs its inline
 * script and styles: no framing, no sniffing, no other origins, no referrer.
 */
const referenceHeaders: Record<string, string> = {
	'content-security-policy':
		"default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	'x-content-type-options': 'nosniff',
	'x-frame-options': 'DENY',
	'referrer-policy': 'no-referrer'
}

const info = {
	title: 'smkit playground API',
	version: packageJson.version,
	description:
		'JSON endpoints over the Instagram client. Every response under /api/ is an envelope: ' +
		'`{ success: true, message, data, timestamp }` (lists add `next_cursor`) or ' +
		'`{ success: false, error, code, timestamp }` with the HTTP status of its `code`. ' +
		'A server bound beyond loopback requires its access token; on loopback only a server given one (--token or SMKIT_TOKEN) does.'
}

type ScalarConfig = Parameters<typeof ScalarRender>[1]

/** What the reference needs of the app. */
export interface OpenapiRoutesOptions {
	/** The app's current routes (read on each request, so routes added later are documented). */
	routes: () => readonly DocumentedRoute[]
	/** Whether a path calls Instagram. */
	callsInstagram: (path: string) => boolean
}

/** The API reference routes. */
export function openapiRoutes({ routes, callsInstagram }: OpenapiRoutesOptions) {
	let cached: { routeCount: number; document: Record<string, unknown> } | undefined
	const document = () => {
		const current = routes()
		if (cached?.routeCount !== current.length) {
			const built = buildOpenApiDocument(current, { ...info, callsInstagram, tags: tagDescriptions })
			cached = { routeCount: current.length, document: built }
		}
		return cached.document
	}
	// The plugin types Scalar's parsed configuration (every field required, no `agent`): cast.
	const page = ScalarRender(info, {
		url: 'openapi/json',
		cdn: SCALAR_SCRIPT_PATH,
		withDefaultFonts: false,
		telemetry: false,
		showDeveloperTools: 'never',
		// "Ask AI" would query Scalar's hosted registry through proxy.scalar.com.
		agent: { disabled: true }
	} as unknown as ScalarConfig)

	return (
		new Elysia()
			// Not an arrow: Elysia awaits a hook whose source looks like `=> call(`, minified too.
			.onRequest(function referenceHeadersHook({ request, set }) {
				const { pathname } = urlOf(request)
				if (pathname === '/openapi' || pathname.startsWith('/openapi/'))
					Object.assign(set.headers, referenceHeaders)
			})
			.get(
				'/openapi',
				() => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
				{
					detail: { hide: true }
				}
			)
			.get('/openapi/json', ({ request }) => Response.json(servedFrom(document(), urlOf(request))), {
				detail: { hide: true }
			})
			.get(
				SCALAR_SCRIPT_PATH,
				() =>
					new Response(Bun.file(scalarBundle), {
						headers: {
							'content-type': 'text/javascript; charset=utf-8',
							'cache-control': 'public, max-age=86400'
						}
					}),
				{ detail: { hide: true } }
			)
	)
}
