/**
 * The browser UI (assets/playground/): `GET /` and the page's script and stylesheet, embedded in
 * the binary (see src/server/embedded-page.ts for how).
 */

import favicon from '../../assets/common/favicon.ico' with { type: 'file' }
import page from '../../assets/playground/index.html'
import { embedPage } from '../server/embedded-page'
import type { PlaygroundContext } from './app'

// Images come from the data itself (profile pictures, thumbnails), so http/https/data are allowed.
const ui = embedPage(page, {
	name: 'playground-ui',
	sourcePrefix: 'ui',
	imageSources: "'self' data: http: https:",
	hideFromReference: true,
	favicon
})

/** GET paths of the UI: the page and its files. Static and secret-free, so they may skip the token. */
export const uiPublicPaths = (): string[] => ui.paths()

/** Routes of the browser UI: `GET /` and the page's assets (hidden from the API reference). */
export const uiRoutes = (_context: PlaygroundContext) => ui.routes()
