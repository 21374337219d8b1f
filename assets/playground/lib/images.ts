/**
 * Images from the data (profile pictures, thumbnails). Only http(s) and `data:image/` URLs load,
 * never with a referrer (the page URL may hold the access token). In demo mode the data is
 * made up, so an image is loaded only from a loopback host (the simulator); any other host gets
 * the placeholder, which keeps a demo session from ever contacting a foreign origin.
 */
import { h, safeImageUrl } from '../../common/dom'
import { getStatus } from './state'

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/i

/** A simulated picture or video: the path every demo simulator serves the same way. */
const DEMO_MEDIA_PATH = /^\/__sim\/(img|video)\//

/**
 * A demo picture's URL on the simulator serving now (`origin`): records stored by an earlier demo
 * process (a watch's follower list, a job, a saved result) name the port of its simulator, gone since.
 * Any other URL is returned as it is.
 */
export function currentDemoUrl(url: string, origin: string | null | undefined): string {
	if (!origin) return url
	try {
		const parsed = new URL(url)
		if (!LOOPBACK.test(parsed.hostname) || !DEMO_MEDIA_PATH.test(parsed.pathname)) return url
		return `${origin.replace(/\/+$/, '')}${parsed.pathname}${parsed.search}`
	} catch {
		return url
	}
}

/** True when this URL may be loaded under the current mode (see the file comment). */
export function imageAllowed(url: string): boolean {
	if (url.startsWith('data:')) return true
	if (!getStatus()?.demo) return true
	try {
		const host = new URL(url).hostname
		return LOOPBACK.test(host) || host === window.location.hostname
	} catch {
		return false
	}
}

/** A placeholder tile showing the first letter of the label. */
export function imagePlaceholder(label: string, className: string, reason: string): HTMLElement {
	const letter = label.trim().replace(/^@/, '').charAt(0).toUpperCase() || '?'
	return h('span', {
		className: `${className} image-placeholder`,
		text: letter,
		attrs: { role: 'img', 'aria-label': label ? `${label} (${reason})` : reason, title: reason }
	})
}

/** An image element for a data URL, or a placeholder when it must not or cannot load. */
export function dataImage(url: unknown, label: string, className = 'thumb'): HTMLElement {
	const status = getStatus()
	const given = safeImageUrl(url)
	const source = given && status?.demo ? currentDemoUrl(given, status.demo_pictures) : given
	if (!source) return imagePlaceholder(label, className, 'no image')
	if (!imageAllowed(source)) return imagePlaceholder(label, className, 'demo image not loaded')
	const image = h('img', { className, attrs: { alt: label, loading: 'lazy', decoding: 'async' } })
	image.referrerPolicy = 'no-referrer'
	image.addEventListener(
		'error',
		() => image.replaceWith(imagePlaceholder(label, className, 'image failed to load')),
		{ once: true }
	)
	image.src = source
	return image
}
