/** `ig.hashtags`: hashtag details (docs/instagram.md, "Hashtags, notifications, direct"). */
import { normalizeHashtag } from '../normalize/search'
import type { Hashtag } from '../types'
import { ApiGroup, call, notFound, type RequestOptions, requireTag } from './base'

/** Hashtags. */
export class Hashtags extends ApiGroup {
	/** Hashtag details (`id`, `name`, `media_count`, `following`): `GET /api/v1/tags/{tag}/info/` [get_default]. */
	async getInfo(tag: string, options: RequestOptions = {}): Promise<Hashtag> {
		const name = requireTag(tag)
		const body = await call(this.client, '/api/v1/tags/{tag}/info/', {
			params: { tag: name },
			category: 'get_default',
			signal: options.signal
		})
		if (!body.name && !body.id) throw notFound(`Hashtag #${name}`, 'GET /api/v1/tags/{tag}/info/')
		return normalizeHashtag(body)
	}
}
