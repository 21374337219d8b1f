/**
 * `ig.feed`: a user's posts, hashtag feeds, liked posts and saved collections (docs/instagram.md, "Feed").
 * GraphQL sources fall back to their REST/legacy counterpart on errors and on empty first pages.
 * Cursors of two-source feeds carry a prefix (`g:` GraphQL, `r:` REST) so paging stays on one source.
 */
import { connectionPage, nodeMedia } from '../normalize/connection'
import { normalizeGraphMedia, normalizeMedia } from '../normalize/media'
import { asArray, asObject, count, flag, type Raw, text } from '../normalize/values'
import { type ListOptions, type Page, type PageFetcher, paginate } from '../pagination'
import type { Media, PageData, SavedCollection } from '../types'
import { ApiGroup, call, docId, isFatal, listConnection, queryHash, requirePk, requireTag } from './base'

const TAG_FEED_DOC_ID = '9506655819362310'
const LIKED_DOC_ID = '9863315953735856'
const LIKED_QUERY_HASH = 'd5d763b1e2acf209d62d22d184488e57'
const SAVED_DOC_ID = '26523442937261068'
const SAVED_QUERY_HASH = '2ce1d673055b99c84dc0d5b62e3f30d2'
/** Instagram serves at most 33 posts per feed page. */
const MAX_FEED_PAGE = 33
/** Where a REST feed answer holds its posts (`restFeedItems`): an answer with none of these is malformed. */
const FEED_LIST = 'items|ranked_items|sections'

/** A media from a connection node in either shape (private-API item or GraphQL node). */
export function mediaFromNode(node: Raw): Media | undefined {
	const media = nodeMedia(node)
	if (media) return normalizeMedia(media)
	return node.shortcode ? normalizeGraphMedia(node) : undefined
}

/** Media items of a REST feed answer (`items`, `ranked_items`, or `sections[].layout_content.medias`). */
export function restFeedItems(body: Raw): Media[] {
	const sections = asArray(body.sections).flatMap((section) =>
		asArray(asObject(section.layout_content).medias)
	)
	const raw = [...asArray(body.ranked_items), ...asArray(body.items), ...sections.map((entry) => entry.media)]
	return raw.map((item) => normalizeMedia(asObject(item).media ?? item))
}

function prefixed<Item>(page: PageData<Item>, prefix: string): PageData<Item> {
	return { items: page.items, next_cursor: page.next_cursor ? prefix + page.next_cursor : null }
}

/**
 * Pages from a GraphQL source with a fallback: the fallback runs when the first GraphQL page fails
 * (other than login/challenge) or is empty. Later pages stay with the source that served page one.
 */
function withFallback<Item>(
	primary: (after: string | undefined) => Promise<PageData<Item>>,
	fallback: (cursor: string | undefined) => Promise<PageData<Item>>
): PageFetcher<Item> {
	return async (cursor) => {
		if (cursor?.startsWith('r:')) return prefixed(await fallback(cursor.slice(2)), 'r:')
		const after = cursor ? cursor.replace(/^g:/, '') : undefined
		try {
			const page = await primary(after)
			if (page.items.length || after) return prefixed(page, 'g:')
		} catch (error) {
			if (isFatal(error) || after) throw error
		}
		return prefixed(await fallback(undefined), 'r:')
	}
}

/** Feeds. */
export class Feed extends ApiGroup {
	/**
	 * A user's posts: `GET /api/v1/feed/user/{pk}/?count=<n>[&max_id=<cursor>]` [get_feed]; the cursor
	 * is `next_max_id`.
	 */
	async getUserFeed(userPk: string, options: ListOptions = {}): Promise<Page<Media>> {
		const pk = requirePk('userPk', userPk)
		return paginate(async (cursor, limit) => {
			const body = await call(this.client, '/api/v1/feed/user/{pk}/', {
				params: { pk },
				query: { count: Math.min(limit ?? 12, MAX_FEED_PAGE), max_id: cursor },
				list: FEED_LIST,
				category: 'get_feed',
				signal: options.signal
			})
			const next = text(body.next_max_id)
			return { items: restFeedItems(body), next_cursor: flag(body.more_available) && next ? next : null }
		}, options)
	}

	/**
	 * Recent posts of a hashtag: GraphQL doc_id `PolarisHashtagFeedQuery`, falling back to
	 * `GET /api/v1/feed/tag/{tag}/` [get_feed].
	 */
	async getTagFeed(tag: string, options: ListOptions = {}): Promise<Page<Media>> {
		const name = requireTag(tag)
		const primary = async (after: string | undefined) => {
			const variables = {
				data: { count: 20, include_relationship_info: true },
				tag_name: name,
				after: after ?? null,
				before: null,
				first: 20,
				last: null
			}
			const data = await docId(this.client, TAG_FEED_DOC_ID, 'PolarisHashtagFeedQuery', variables, {
				category: 'get_default',
				signal: options.signal
			})
			const endpoint = 'POST /graphql/query (PolarisHashtagFeedQuery)'
			return connectionPage(
				listConnection(data, 'xdt_api__v1__feed__tag__connection', endpoint),
				mediaFromNode
			)
		}
		const fallback = async (maxId: string | undefined) => {
			const body = await call(this.client, '/api/v1/feed/tag/{tag}/', {
				params: { tag: name },
				query: { max_id: maxId },
				list: FEED_LIST,
				category: 'get_feed',
				signal: options.signal
			})
			const next = text(body.next_max_id)
			return { items: restFeedItems(body), next_cursor: flag(body.more_available) && next ? next : null }
		}
		return paginate(withFallback(primary, fallback), options)
	}

	/** Posts the viewer liked: GraphQL doc_id `PolarisLikedPostsQuery`, falling back to its legacy query_hash. */
	async getLiked(options: ListOptions = {}): Promise<Page<Media>> {
		const viewer = this.client.transport.viewerPk ?? ''
		const primary = async (after: string | undefined) => {
			const variables = { data: { count: 20 }, id: viewer, first: 20, after: after ?? null }
			const data = await docId(this.client, LIKED_DOC_ID, 'PolarisLikedPostsQuery', variables, {
				category: 'get_default',
				signal: options.signal
			})
			const endpoint = 'POST /graphql/query (PolarisLikedPostsQuery)'
			return connectionPage(
				listConnection(data, 'xdt_api__v1__feed__liked__connection', endpoint),
				mediaFromNode
			)
		}
		const fallback = async (after: string | undefined) => {
			const data = await queryHash(
				this.client,
				LIKED_QUERY_HASH,
				{ id: viewer, first: 20, after: after ?? null },
				{ category: 'get_feed', signal: options.signal }
			)
			const endpoint = `GET /graphql/query/ (query_hash ${LIKED_QUERY_HASH})`
			return connectionPage(listConnection(data, 'edge_liked_media', endpoint), mediaFromNode)
		}
		return paginate(withFallback(primary, fallback), options)
	}

	/**
	 * The viewer's saved collections (the saved tab lists collections, not posts): GraphQL doc_id
	 * `PolarisProfileSavedTabContentQuery`, falling back to its legacy query_hash. Honours `cursor`.
	 */
	async getSaved(options: ListOptions = {}): Promise<Page<SavedCollection>> {
		const viewer = this.client.transport.viewerPk ?? ''
		const primary = async (after: string | undefined) => {
			const variables = {
				collection_types: ['ALL_MEDIA_AUTO_COLLECTION', 'MEDIA', 'AUDIO_AUTO_COLLECTION'],
				count: 20,
				get_cover_media_lists: true,
				after: after ?? null
			}
			const data = await docId(this.client, SAVED_DOC_ID, 'PolarisProfileSavedTabContentQuery', variables, {
				category: 'get_default',
				signal: options.signal
			})
			const endpoint = 'POST /graphql/query (PolarisProfileSavedTabContentQuery)'
			return connectionPage(
				listConnection(data, 'xdt_api__v1__collections__list_graphql_connection', endpoint),
				collectionFromNode
			)
		}
		const fallback = async (after: string | undefined) => {
			const data = await queryHash(
				this.client,
				SAVED_QUERY_HASH,
				{ id: viewer, first: 20, after: after ?? null },
				{ category: 'get_feed', signal: options.signal }
			)
			const endpoint = `GET /graphql/query/ (query_hash ${SAVED_QUERY_HASH})`
			return connectionPage(listConnection(data, 'edge_collections', endpoint), collectionFromNode)
		}
		return paginate(withFallback(primary, fallback), options)
	}
}

/** A saved collection from a connection node (nodes without a collection id are skipped). */
function collectionFromNode(node: Raw): SavedCollection | undefined {
	const id = text(node.collection_id ?? node.id)
	if (!id) return undefined
	const covers = asArray(node.cover_media_list ?? (node.cover_media ? [node.cover_media] : []))
	return {
		collection_id: id,
		collection_name: text(node.collection_name ?? node.name),
		collection_media_count: count(node.collection_media_count ?? node.media_count),
		cover_urls: covers
			.map((cover) => text(asArray(asObject(cover.image_versions2).candidates)[0]?.url ?? cover.display_url))
			.filter(Boolean)
	}
}
