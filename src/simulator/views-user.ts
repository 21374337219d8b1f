/**
 * Accounts in Instagram's JSON shapes (docs/instagram.md, "Endpoints"): the short form of lists, the web
 * profile (`web_profile_info`, GraphQL) and the REST `/users/{id}/info/` form. User pks are strings,
 * as the web API sends them; media pks inside stay bigint so they serialise as bare numbers.
 */
import { encodeCursor } from './cursor'
import type { DemoUser } from './dataset-types'
import type { SimulatorState } from './state'
import { graphNode } from './views-media'

/** What every view needs: the live state, the simulator's origin (for image URLs) and the viewer, if any. */
export interface ViewContext {
	state: SimulatorState
	origin: string
	/** The logged-in viewer's pk, or null for anonymous requests. */
	viewerPk: string | null
	/** The request time, unix seconds. */
	now: number
}

/** The URL of a profile picture served by the simulator. */
export function profilePicUrl(origin: string, user: DemoUser, size = 150): string {
	return `${origin}/__sim/img/u/${user.pk}.svg?s=${size}`
}

/** The newest active story time of an account (0 when none), like `latest_reel_media`. */
export function latestReelMedia(context: ViewContext, pk: string): number {
	const stories = context.state.data.stories.get(pk)
	return stories && stories.length > 0 ? context.now - (stories.at(-1)?.ageSeconds ?? 0) : 0
}

/** `<user-short>`: the user object of lists, media and comments. */
export function userShort(context: ViewContext, user: DemoUser) {
	return {
		pk: user.pk,
		pk_id: user.pk,
		id: user.pk,
		strong_id__: user.pk,
		username: user.username,
		full_name: user.fullName,
		is_private: user.isPrivate,
		is_verified: user.isVerified,
		profile_pic_id: `${user.pk}_pic`,
		profile_pic_url: profilePicUrl(context.origin, user),
		has_anonymous_profile_picture: false,
		fbid_v2: user.fbid,
		account_badges: [],
		latest_reel_media: latestReelMedia(context, user.pk)
	}
}

/** `biography_with_entities` for a bio: mentions and hashtags that name something that exists. */
function biographyWithEntities(context: ViewContext, biography: string) {
	const entities: ({ user: { username: string } } | { hashtag: { name: string } })[] = []
	for (const match of biography.matchAll(/@([\p{L}\p{N}_.]+)/gu)) {
		const username = (match[1] as string).replace(/\.+$/, '')
		if (context.state.userByUsername(username)) entities.push({ user: { username } })
	}
	for (const match of biography.matchAll(/#([\p{L}\p{M}\p{N}_]+)/gu))
		entities.push({ hashtag: { name: match[1] as string } })
	return { raw_text: biography, entities }
}

function bioLinks(user: DemoUser) {
	return user.bioLinks.map((link) => ({
		title: link.title,
		lynx_url: `https://l.instagram.com/?u=${encodeURIComponent(link.url)}`,
		url: link.url,
		link_type: link.linkType
	}))
}

/** The web profile (`web_profile_info` `data.user`, GraphQL `data.user`), with its 12 newest posts. */
export function webProfile(context: ViewContext, user: DemoUser) {
	const { state } = context
	const posts = state.postsOf(user.pk)
	const visible = state.canView(context.viewerPk, user.pk)
	const edges = visible ? posts.slice(0, 12).map((media) => ({ node: graphNode(context, media) })) : []
	const loggedIn = context.viewerPk !== null
	return {
		id: user.pk,
		username: user.username,
		full_name: user.fullName,
		biography: user.biography,
		biography_with_entities: biographyWithEntities(context, user.biography),
		bio_links: bioLinks(user),
		external_url: user.externalUrl,
		external_url_linkshimmed: user.externalUrl
			? `https://l.instagram.com/?u=${encodeURIComponent(user.externalUrl)}`
			: null,
		edge_followed_by: { count: state.followersOf(user.pk).length },
		edge_follow: { count: state.followingOf(user.pk).length },
		edge_mutual_followed_by: { count: loggedIn ? mutualFollowers(context, user.pk).length : 0, edges: [] },
		edge_owner_to_timeline_media: {
			count: posts.length,
			page_info: {
				has_next_page: visible && posts.length > 12,
				end_cursor: visible && posts.length > 12 ? encodeCursor('posts', 12) : null
			},
			edges
		},
		edge_felix_video_timeline: { count: 0, page_info: { has_next_page: false, end_cursor: null }, edges: [] },
		is_private: user.isPrivate,
		is_verified: user.isVerified,
		is_business_account: user.isBusiness,
		is_professional_account: user.isBusiness,
		category_name: user.category,
		business_category_name: user.category,
		business_email: user.publicEmail,
		business_phone_number: user.publicPhone
			? `+${user.publicPhone.countryCode}${user.publicPhone.number}`
			: null,
		business_address_json: user.addressStreet
			? JSON.stringify({ street_address: user.addressStreet, city_name: user.city, zip_code: null })
			: null,
		profile_pic_url: profilePicUrl(context.origin, user),
		profile_pic_url_hd: profilePicUrl(context.origin, user, 320),
		highlight_reel_count: state.data.highlights.get(user.pk)?.length ?? 0,
		pronouns: user.pronouns,
		fbid: user.fbid,
		has_clips: posts.some((media) => media.productType === 'clips'),
		followed_by_viewer: loggedIn && state.isFollowing(user.pk),
		follows_viewer: loggedIn && state.followsViewer(user.pk),
		requested_by_viewer: loggedIn && state.hasOutgoingRequest(user.pk),
		blocked_by_viewer: loggedIn && state.data.graph.blocked.includes(user.pk),
		restricted_by_viewer: loggedIn && state.data.graph.restricted.includes(user.pk),
		is_joined_recently: false
	}
}

/** Followers of `pk` whom the viewer follows. */
export function mutualFollowers(context: ViewContext, pk: string): string[] {
	if (pk === context.state.viewerPk) return []
	return context.state.followersOf(pk).filter((follower) => context.state.isFollowing(follower))
}

/** The REST profile (`/users/{id}/info/` `user`; also `/accounts/current_user/` adds private fields). */
export function userInfo(context: ViewContext, user: DemoUser) {
	const { state } = context
	const posts = state.postsOf(user.pk)
	return {
		...userShort(context, user),
		biography: user.biography,
		biography_with_entities: biographyWithEntities(context, user.biography),
		bio_links: bioLinks(user),
		external_url: user.externalUrl,
		is_business: user.isBusiness,
		account_type: user.isBusiness ? 2 : 1,
		category: user.category,
		follower_count: state.followersOf(user.pk).length,
		following_count: state.followingOf(user.pk).length,
		media_count: posts.length,
		total_clips_count: posts.filter((media) => media.productType === 'clips').length,
		hd_profile_pic_url_info: { url: profilePicUrl(context.origin, user, 320), width: 320, height: 320 },
		public_email: user.publicEmail ?? '',
		public_phone_number: user.publicPhone?.number ?? '',
		public_phone_country_code: user.publicPhone?.countryCode ?? '',
		city_name: user.city ?? '',
		address_street: user.addressStreet ?? '',
		highlight_reel_count: state.data.highlights.get(user.pk)?.length ?? 0,
		mutual_followers_count: mutualFollowers(context, user.pk).length,
		is_active_on_text_post_app: user.isThreadsUser,
		pronouns: user.pronouns,
		has_highlight_reels: (state.data.highlights.get(user.pk)?.length ?? 0) > 0
	}
}

/** `/friendships/show/{pk}/`: the viewer's relation to an account. */
export function friendshipStatus(context: ViewContext, user: DemoUser) {
	const { state } = context
	const graph = state.data.graph
	return {
		following: state.isFollowing(user.pk),
		followed_by: state.followsViewer(user.pk),
		blocking: graph.blocked.includes(user.pk),
		muting: false,
		is_private: user.isPrivate,
		incoming_request: graph.pendingRequests.includes(user.pk),
		outgoing_request: state.hasOutgoingRequest(user.pk),
		is_bestie: graph.closeFriends.includes(user.pk),
		is_restricted: graph.restricted.includes(user.pk),
		is_feed_favorite: false,
		subscribed: false,
		is_eligible_to_subscribe: false
	}
}
