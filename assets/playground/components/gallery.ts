/**
 * Pictures found in a result: profile pictures and post thumbnails, wherever they sit in the data
 * (top level, list items, `user`, `items`, `image_versions2.candidates`), shown as a grid with the
 * owner's name or the post code as caption.
 */
import { h } from '../../common/dom'
import { dataImage } from '../lib/images'

const IMAGE_KEYS = [
	'profile_pic_url_hd',
	'profile_pic_url',
	'thumbnail_url',
	'display_url',
	'image_url',
	'thumbnail_src'
]

/** One picture and what it shows. */
export interface FoundImage {
	url: string
	label: string
}

function labelOf(record: Record<string, unknown>): string {
	if (typeof record.username === 'string') return `@${record.username}`
	if (typeof record.code === 'string') return record.code
	if (typeof record.name === 'string') return record.name
	if (typeof record.title === 'string') return record.title
	return ''
}

/**
 * Collects the distinct picture URLs of any JSON value (up to `limit`). The gallery shows them all,
 * as the table shows every row with its picture: the images load lazily, as they scroll into view,
 * and a cap would hide the pictures of rows "Load more" added without saying so.
 */
export function collectImages(value: unknown, limit = Number.POSITIVE_INFINITY): FoundImage[] {
	const found: FoundImage[] = []
	const seen = new Set<string>()
	const visit = (current: unknown, depth: number): void => {
		if (found.length >= limit || depth > 6 || current === null || typeof current !== 'object') return
		if (Array.isArray(current)) {
			for (const item of current) visit(item, depth + 1)
			return
		}
		const record = current as Record<string, unknown>
		for (const key of IMAGE_KEYS) {
			const url = record[key]
			if (typeof url === 'string' && url !== '' && !seen.has(url)) {
				seen.add(url)
				found.push({ url, label: labelOf(record) })
				break
			}
		}
		const candidates = (record.image_versions2 as { candidates?: { url?: unknown }[] } | undefined)
			?.candidates
		const first = Array.isArray(candidates) ? candidates[0]?.url : undefined
		if (
			typeof first === 'string' &&
			!seen.has(first) &&
			!IMAGE_KEYS.some((key) => typeof record[key] === 'string')
		) {
			seen.add(first)
			found.push({ url: first, label: labelOf(record) })
		}
		for (const [key, child] of Object.entries(record)) {
			if (key !== 'image_versions2' && child !== null && typeof child === 'object') visit(child, depth + 1)
		}
	}
	visit(value, 0)
	return found
}

/** A grid of pictures with captions. */
export function gallery(images: FoundImage[]): HTMLElement {
	return h(
		'ul',
		{ className: 'gallery' },
		...images.map((image) =>
			h(
				'li',
				null,
				h(
					'figure',
					null,
					dataImage(image.url, image.label || 'picture', 'thumb thumb-large'),
					h('figcaption', { text: image.label || ' ' })
				)
			)
		)
	)
}
