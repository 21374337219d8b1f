/**
 * Images from the data (profile pictures, thumbnails). Only http(s) and `data:image/` URLs load,
 * never with a referrer (the page URL may hold the access token). In demo mode the data is
 * made up, so an image is loaded only from a loopback host (the simulator); any other host gets
 * the placeholder, which keeps a demo session from ever contacting a foreign origin.
 */
import { h, safeImageUrl } from '../../common/dom'
import { getStatus } from './state'

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/i

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
	const source = safeImageUrl(url)
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
