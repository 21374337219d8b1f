/**
 * The chat page (assets/agentweb/), embedded in the binary (see src/server/embedded-page.ts).
 */
import page from '../../assets/agentweb/index.html'
import favicon from '../../assets/common/favicon.ico' with { type: 'file' }
import { embedPage } from '../server/embedded-page'

// Markdown images become links in the chat, so no image is ever fetched from elsewhere.
const ui = embedPage(page, {
	name: 'agentweb-ui',
	sourcePrefix: 'chat',
	imageSources: "'self' data:",
	favicon
})

/** GET paths of the chat UI (the page and its files): static, secret-free, served without the token. */
export const chatUiPaths = (): string[] => ui.paths()

/** `GET /` (the chat page) and its script and stylesheet. */
export const chatUiRoutes = () => ui.routes()
