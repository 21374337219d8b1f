/**
 * GraphQL: legacy `GET /graphql/query/?query_hash=&variables=` and modern `POST /graphql/query` /
 * `POST /api/graphql` (form `doc_id`, `variables`). Connections page with `first` and `after`
 * (`page_info.end_cursor`). The liked and saved query_hash fallbacks answer the same shapes as their
 * doc_id counterparts. Anonymous callers may use the profile and public-posts hashes and the
 * shortcode-media doc; everything else needs the session.
 */
import { decodeCursor, pageOf, pageSize } from '../cursor'
import type { DemoMedia } from '../dataset-types'
import {
	fail,
	hasSession,
	loginRequired,
	ok,
	parseJsonField,
	type Reply,
	type Route,
	type RouteContext
} from '../http'
import { graphNode, imageVersions, mediaItem } from '../views-media'
import { profilePicUrl, webProfile } from '../views-user'

/**
 * The query hashes and doc ids the simulator knows (docs/instagram.md, "Users", "Feed", "Public
 * (anonymous)").
 */
export const GRAPHQL_IDS = Object.freeze({
	userByIdOrUsername: 'c9100bf9110dd6361671f113dd02e7d6',
	publicPosts: '69cba40317214236af40e7efa697781d',
	likedHash: 'd5d763b1e2acf209d62d22d184488e57',
	savedHash: '2ce1d673055b99c84dc0d5b62e3f30d2',
	tagFeedDoc: '9506655819362310',
	likedDoc: '9863315953735856',
	savedDoc: '26523442937261068',
	shortcodeMediaDoc: '10015901848480474'
})

type Variables = Record<string, unknown>
type Handler = (context: RouteContext, variables: Variables) => Reply

const graphOk = (data: Record<string, unknown>): Reply => ok({ data, extensions: { is_final: true } })

/**
 * The most items one page of each connection serves, whatever `first` asks: they differ, as on
 * Instagram, so a client cannot assume one page size.
 */
const MAX_PAGE = { tag: 9, liked: 16, saved: 3, posts: 50 } as const

/** A page of a connection: `first` (or `data.count`) items, at most `maxPage`, after the `after` cursor. */
function connection<T>(
	items: readonly T[],
	kind: string,
	variables: Variables,
	maxPage: number,
	toNode: (item: T) => unknown
): Reply | object {
	const data = (variables.data ?? {}) as { count?: unknown }
	const size = pageSize(String(variables.first ?? data.count ?? ''), Math.min(20, maxPage), maxPage)
	const offset = decodeCursor(kind, typeof variables.after === 'string' ? variables.after : null)
	if (offset === null) return fail(400, 'Invalid after cursor')
	const { page, nextCursor } = pageOf(items, kind, offset, size)
	return {
		edges: page.map((item) => ({ node: toNode(item) })),
		page_info: {
			has_next_page: nextCursor !== null,
			end_cursor: nextCursor,
			has_previous_page: offset > 0,
			start_cursor: null
		}
	}
}

const wrap = (key: string, result: Reply | object): Reply =>
	'body' in result && 'status' in result ? (result as Reply) : graphOk({ [key]: result })

const likedFeed: Handler = (context, variables) =>
	wrap(
		'xdt_api__v1__feed__liked__connection',
		connection(context.state.likedMedia(), 'gliked', variables, MAX_PAGE.liked, (media: DemoMedia) => ({
			media: mediaItem(context, media)
		}))
	)

const savedCollections: Handler = (context, variables) => {
	const types = Array.isArray(variables.collection_types) ? variables.collection_types.map(String) : null
	const collections = context.state.data.viewer.collections.filter(
		(collection) => !types || types.includes(collection.type)
	)
	return wrap(
		'xdt_api__v1__collections__list_graphql_connection',
		connection(collections, 'gsaved', variables, MAX_PAGE.saved, (collection) => ({
			collection_id: collection.id,
			collection_name: collection.name,
			collection_type: collection.type,
			collection_media_count: collection.mediaPks.length,
			cover_media_list: collection.mediaPks.slice(0, 4).flatMap((pk) => {
				const media = context.state.media(pk)
				if (!media) return []
				return [
					{
						id: media.id,
						pk: media.pk,
						code: media.code,
						media_type: media.mediaType,
						image_versions2: imageVersions(context.origin, media.code, media.width, media.height)
					}
				]
			})
		}))
	)
}

const tagFeed: Handler = (context, variables) => {
	const tag = String(variables.tag_name ?? '')
		.replace(/^#/, '')
		.toLowerCase()
	if (tag === '') return fail(400, 'tag_name is required')
	const items = context.state.postsTagged(tag)
	return wrap(
		'xdt_api__v1__feed__tag__connection',
		connection(items, `gtag-${tag}`, variables, MAX_PAGE.tag, (media) => ({
			media: mediaItem(context, media)
		}))
	)
}

const userProfile: Handler = (context, variables) => {
	const user =
		typeof variables.id === 'string' || typeof variables.id === 'number'
			? context.state.user(String(variables.id))
			: typeof variables.username === 'string'
				? context.state.userByUsername(variables.username)
				: undefined
	return graphOk({ user: user ? webProfile(context, user) : null })
}

const publicPosts: Handler = (context, variables) => {
	const user = context.state.user(String(variables.id ?? ''))
	if (!user) return graphOk({ user: null })
	const posts = context.state.canView(context.viewerPk, user.pk) ? context.state.postsOf(user.pk) : []
	const page = connection(posts, 'posts', variables, MAX_PAGE.posts, (media) => graphNode(context, media))
	if ('body' in page) return page as Reply
	const total = context.state.postsOf(user.pk).length
	return graphOk({ user: { edge_owner_to_timeline_media: { count: total, ...page } } })
}

const shortcodeMedia: Handler = (context, variables) => {
	const media = context.state.mediaByCode(String(variables.shortcode ?? ''))
	if (!media || !context.state.canView(context.viewerPk, media.ownerPk))
		return graphOk({ xdt_shortcode_media: null })
	const owner = context.state.user(media.ownerPk)
	return graphOk({
		xdt_shortcode_media: {
			...graphNode(context, media),
			owner: owner
				? {
						id: owner.pk,
						username: owner.username,
						full_name: owner.fullName,
						is_verified: owner.isVerified,
						is_private: owner.isPrivate,
						profile_pic_url: profilePicUrl(context.origin, owner)
					}
				: null
		}
	})
}

/** Query hashes: handler and whether an anonymous caller may use it. */
const QUERY_HASHES: Record<string, { handler: Handler; anonymous: boolean }> = {
	[GRAPHQL_IDS.userByIdOrUsername]: { handler: userProfile, anonymous: true },
	[GRAPHQL_IDS.publicPosts]: { handler: publicPosts, anonymous: true },
	[GRAPHQL_IDS.likedHash]: { handler: likedFeed, anonymous: false },
	[GRAPHQL_IDS.savedHash]: { handler: savedCollections, anonymous: false }
}

const DOC_IDS: Record<string, { handler: Handler; anonymous: boolean }> = {
	[GRAPHQL_IDS.tagFeedDoc]: { handler: tagFeed, anonymous: false },
	[GRAPHQL_IDS.likedDoc]: { handler: likedFeed, anonymous: false },
	[GRAPHQL_IDS.savedDoc]: { handler: savedCollections, anonymous: false },
	[GRAPHQL_IDS.shortcodeMediaDoc]: { handler: shortcodeMedia, anonymous: true }
}

function dispatch(
	context: RouteContext,
	entry: { handler: Handler; anonymous: boolean } | undefined,
	rawVariables: string | null,
	label: string
): Reply {
	if (!entry) return fail(400, `Unknown ${label}`)
	if (!entry.anonymous && !hasSession(context.request)) return loginRequired()
	const variables = rawVariables === null || rawVariables === '' ? {} : parseJsonField(rawVariables)
	if (typeof variables !== 'object' || variables === null || Array.isArray(variables))
		return fail(400, 'variables must be a JSON object')
	return entry.handler(context, variables as Variables)
}

const docRoute = (path: string, access: 'session' | 'public'): Route => ({
	method: 'POST',
	path,
	access,
	handle: (context) =>
		dispatch(context, DOC_IDS[context.form.get('doc_id') ?? ''], context.form.get('variables'), 'doc_id')
})

/** GraphQL routes. */
export const graphqlRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/graphql/query/',
		access: 'public',
		handle: (context) =>
			dispatch(
				context,
				QUERY_HASHES[context.query.get('query_hash') ?? ''],
				context.query.get('variables'),
				'query_hash'
			)
	},
	docRoute('/graphql/query/', 'session'),
	docRoute('/api/graphql/', 'public')
]
