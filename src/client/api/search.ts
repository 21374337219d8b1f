/**
 * `ig.search`: blended, user, hashtag and place search, and the explore page (docs/instagram.md,
 * "Search").
 */
import { normalizeHashtag, normalizePlace } from '../normalize/search'
import { normalizeUserShort } from '../normalize/user'
import { asArray, asObject, flag, text } from '../normalize/values'
import { type ListOptions, type Page, paginate, paginateWhole } from '../pagination'
import type { Hashtag, Media, Place, TopSearch, UserShort } from '../types'
import { ApiGroup, call, type RequestOptions, requireText } from './base'
import { mediaFromNode } from './feed'

/** Search. */
export class Search extends ApiGroup {
	/**
	 * Users, hashtags and places at once: `GET /api/v1/web/search/topsearch/?context=blended`
	 * [get_search]. An answer with none of the three lists is malformed (upstream_error), not "no match".
	 */
	async top(query: string, options: RequestOptions = {}): Promise<TopSearch> {
		const text = requireText('query', query, 200)
		const body = await this.#topsearch(text, 'blended', options.signal, 'users|hashtags|places')
		return {
			users: asArray(body.users).map((entry) => normalizeUserShort(entry.user)),
			hashtags: asArray(body.hashtags).map((entry) => normalizeHashtag(entry.hashtag)),
			places: asArray(body.places).map((entry) => normalizePlace(asObject(entry.place).location, entry.place))
		}
	}

	/** Users only: topsearch with `context=user` → `users[].user` [get_search]. */
	async users(query: string, options: ListOptions = {}): Promise<Page<UserShort>> {
		const text = requireText('query', query, 200)
		return paginateWhole(async () => {
			const body = await this.#topsearch(text, 'user', options.signal, 'users')
			return asArray(body.users).map((entry) => normalizeUserShort(entry.user))
		}, options)
	}

	/** Hashtags: `GET /api/v1/tags/search/?q=` → `results[]` [get_search]. */
	async hashtags(query: string, options: ListOptions = {}): Promise<Page<Hashtag>> {
		const q = requireText('query', query, 200).replace(/^#/, '')
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/tags/search/', {
				query: { q },
				list: 'results',
				category: 'get_search',
				signal: options.signal
			})
			return asArray(body.results).map(normalizeHashtag)
		}, options)
	}

	/** Places: `GET /api/v1/fbsearch/places/?query=` → `items[]` [get_search]. */
	async places(query: string, options: ListOptions = {}): Promise<Page<Place>> {
		const text = requireText('query', query, 200)
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/fbsearch/places/', {
				query: { query: text },
				list: 'items',
				category: 'get_search',
				signal: options.signal
			})
			return asArray(body.items).map((item) => normalizePlace(item.location, item))
		}, options)
	}

	/**
	 * Posts of the explore page: `GET /api/v1/discover/topical_explore/[?max_id=]` [get_default]; media
	 * are collected from every section layout.
	 */
	async explore(options: ListOptions = {}): Promise<Page<Media>> {
		return paginate(async (cursor) => {
			const body = await call(this.client, '/api/v1/discover/topical_explore/', {
				query: { max_id: cursor, is_prefetch: 'false', omit_cover_media: 'true' },
				list: 'sectional_items|items',
				category: 'get_default',
				signal: options.signal
			})
			const items: Media[] = []
			for (const node of exploreNodes(body)) {
				const media = mediaFromNode(node)
				if (media?.pk) items.push(media)
			}
			const next = text(body.next_max_id)
			return { items, next_cursor: flag(body.more_available) && next ? next : null }
		}, options)
	}

	async #topsearch(query: string, context: 'blended' | 'user', signal?: AbortSignal, list?: string) {
		return call(this.client, '/api/v1/web/search/topsearch/', {
			query: { query, context },
			list,
			category: 'get_search',
			signal
		})
	}
}

/** Every `{media}` holder of an explore answer, whatever the section layout (medias, fill_items, clips). */
function exploreNodes(body: Record<string, unknown>): Record<string, unknown>[] {
	const nodes: Record<string, unknown>[] = [...asArray(body.items)]
	for (const section of asArray(body.sectional_items)) {
		const content = asObject(section.layout_content)
		nodes.push(...asArray(content.medias), ...asArray(content.fill_items))
		for (const key of ['one_by_two_item', 'two_by_two_item']) {
			const holder = asObject(content[key])
			nodes.push(...asArray(asObject(holder.clips).items))
			if (holder.media) nodes.push(holder)
		}
	}
	return nodes
}
