/** `ig.hashtags`: hashtag details (docs/instagram.md, "Hashtags, notifications, direct"). */
import { normalizeHashtag } from '../normalize/search'
import type { Hashtag } from '../types'
import { ApiGroup, call, malformedAnswer, type RequestOptions, requireTag } from './base'

/** Hashtags. */
export class Hashtags extends ApiGroup {
	/**
	 * Hashtag details (`id`, `name`, `media_count`, `following`): `GET /api/v1/tags/{tag}/info/`
	 * [get_default]. Instagram answers a hashtag it has no page for with a 404 (not_found); a 200
	 * without the hashtag's name and id, or without its `media_count`, is malformed (upstream_error), not a
	 * hashtag of 0 posts.
	 */
	async getInfo(tag: string, options: RequestOptions = {}): Promise<Hashtag> {
		const name = requireTag(tag)
		const body = await call(this.client, '/api/v1/tags/{tag}/info/', {
			params: { tag: name },
			category: 'get_default',
			signal: options.signal
		})
		const endpoint = `GET /api/v1/tags/${encodeURIComponent(name)}/info/`
		if (!body.name && !body.id) throw malformedAnswer(endpoint, 'its hashtag (name, id)')
		// A count of 0 is told by Instagram, never assumed (a watch would store it as the tag's size).
		if (typeof body.media_count !== 'number') throw malformedAnswer(endpoint, 'its media count (media_count)')
		return normalizeHashtag(body)
	}
}
