/**
 * Posts, comments and places in Instagram's JSON shapes (docs/instagram.md, "Endpoints"). Media and
 * story pks are bigint here so the JSON writer emits them as exact bare numbers, as Instagram does.
 */
import type { DemoComment, DemoMedia, DemoPlace } from './dataset-types'
import { profilePicUrl, userShort, type ViewContext } from './views-user'

/** The URL of an image served by the simulator (a generated SVG placeholder). */
export function imageUrl(origin: string, key: string, width: number, height: number): string {
	return `${origin}/__sim/img/m/${encodeURIComponent(key)}.svg?w=${width}&h=${height}`
}

/** `image_versions2`: three sizes, largest first. */
export function imageVersions(origin: string, key: string, width: number, height: number) {
	const sizes = [1, 0.6666, 0.3333]
	return {
		candidates: sizes.map((scale) => {
			const candidateWidth = Math.round(width * scale)
			const candidateHeight = Math.round(height * scale)
			return {
				width: candidateWidth,
				height: candidateHeight,
				url: imageUrl(origin, key, candidateWidth, candidateHeight)
			}
		})
	}
}

/** `video_versions`: the video in the sizes Instagram lists. */
export function videoVersions(origin: string, key: string, width: number, height: number) {
	return [101, 102, 103].map((type, index) => ({
		type,
		width: Math.round(width / (index + 1)),
		height: Math.round(height / (index + 1)),
		url: `${origin}/__sim/video/${encodeURIComponent(key)}.mp4?v=${type}`,
		id: `${key}-${type}`
	}))
}

/** A place as media and search results carry it under `location`. */
export function locationView(place: DemoPlace) {
	return {
		pk: Number(place.pk),
		short_name: place.shortName,
		facebook_places_id: Number(place.facebookPlacesId),
		external_source: 'facebook_places',
		name: place.name,
		address: place.address,
		city: place.city,
		has_viewer_saved: false,
		lng: place.lng,
		lat: place.lat,
		is_eligible_for_guides: true
	}
}

/** `<media item>` of `/media/{pk}/info/`, feeds and the doc_id connections. */
export function mediaItem(context: ViewContext, media: DemoMedia) {
	const { state, origin } = context
	const owner = state.user(media.ownerPk)
	if (!owner) throw new Error(`media ${media.pk} has no owner`)
	const user = userShort(context, owner)
	const place = media.locationPk ? state.data.placeByPk.get(media.locationPk) : undefined
	const likers = state.likersOf(media).slice(0, 3)
	const isVideo = media.mediaType === 2
	return {
		taken_at: media.takenAt,
		pk: media.pk,
		id: media.id,
		media_type: media.mediaType,
		code: media.code,
		product_type: media.productType,
		caption: media.caption
			? {
					pk: media.captionPk,
					user_id: owner.pk,
					text: media.caption,
					type: 1,
					created_at: media.takenAt,
					created_at_utc: media.takenAt,
					content_type: 'comment',
					status: 'Active',
					media_id: media.pk,
					user,
					is_covered: false,
					did_report_as_spam: false,
					share_enabled: false
				}
			: null,
		caption_is_edited: false,
		user,
		owner: user,
		like_count: state.likeCount(media),
		comment_count: state.commentCount(media),
		has_liked: context.viewerPk !== null && state.isLiked(media),
		has_viewer_saved: context.viewerPk !== null && state.isSaved(media),
		like_and_view_counts_disabled: false,
		comment_likes_enabled: true,
		commenting_disabled_for_viewer: false,
		max_num_visible_preview_comments: 2,
		image_versions2: imageVersions(origin, media.code, media.width, media.height),
		original_width: media.width,
		original_height: media.height,
		video_versions: isVideo ? videoVersions(origin, media.code, media.width, media.height) : undefined,
		video_duration: media.videoDuration ?? undefined,
		has_audio: isVideo ? true : undefined,
		play_count: media.playCount ?? undefined,
		ig_play_count: media.playCount ?? undefined,
		view_count: media.playCount ?? undefined,
		reshare_count: Math.floor(media.likerCount / 9),
		carousel_media_count: media.mediaType === 8 ? media.children.length : undefined,
		carousel_media:
			media.mediaType === 8
				? media.children.map((child, index) => {
						const key = `${media.code}-${index + 1}`
						return {
							pk: child.pk,
							id: `${child.pk}_${owner.pk}`,
							media_type: child.mediaType,
							image_versions2: imageVersions(origin, key, child.width, child.height),
							video_versions:
								child.mediaType === 2 ? videoVersions(origin, key, child.width, child.height) : undefined,
							original_width: child.width,
							original_height: child.height,
							carousel_parent_id: media.id
						}
					})
				: undefined,
		usertags:
			media.usertags.length > 0
				? {
						in: media.usertags.flatMap((pk, index) => {
							const tagged = state.user(pk)
							return tagged ? [{ user: userShort(context, tagged), position: [0.2 + index * 0.25, 0.5] }] : []
						})
					}
				: undefined,
		location: place ? locationView(place) : undefined,
		lat: place?.lat,
		lng: place?.lng,
		facepile_top_likers: likers.flatMap((pk) => {
			const liker = state.user(pk)
			return liker ? [userShort(context, liker)] : []
		}),
		top_likers: likers.flatMap((pk) => state.user(pk)?.username ?? []),
		coauthor_producers: [],
		is_paid_partnership: false,
		accessibility_caption: media.accessibilityCaption,
		clips_metadata:
			media.productType === 'clips'
				? { clips_creation_entry_point: 'clips', is_shared_to_fb: false }
				: undefined,
		music_metadata: media.music
			? {
					music_canonical_id: media.music.id,
					audio_type: 'licensed_music',
					music_info: {
						music_asset_info: {
							id: media.music.id,
							audio_cluster_id: media.music.id,
							title: media.music.title,
							display_artist: media.music.artist,
							duration_in_ms: media.music.durationMs,
							cover_artwork_uri: imageUrl(origin, `music-${media.music.id}`, 300, 300)
						}
					}
				}
			: undefined,
		can_viewer_reshare: true,
		organic_tracking_token: `eyJ2ZXJzaW9uIjo1fQ.${media.code}`
	}
}

/** A post as a GraphQL node (web profile edges, the public posts query_hash). `id` is a string there. */
export function graphNode(context: ViewContext, media: DemoMedia) {
	const { state, origin } = context
	const typename =
		media.mediaType === 8 ? 'GraphSidecar' : media.mediaType === 2 ? 'GraphVideo' : 'GraphImage'
	const display = imageUrl(origin, media.code, media.width, media.height)
	const owner = state.user(media.ownerPk)
	const place = media.locationPk ? state.data.placeByPk.get(media.locationPk) : undefined
	return {
		__typename: typename,
		id: String(media.pk),
		shortcode: media.code,
		dimensions: { height: media.height, width: media.width },
		display_url: display,
		thumbnail_src: imageUrl(origin, media.code, 640, 640),
		is_video: media.mediaType === 2,
		video_url: media.mediaType === 2 ? `${origin}/__sim/video/${media.code}.mp4` : undefined,
		video_view_count: media.playCount ?? undefined,
		product_type: media.productType === 'clips' ? 'clips' : undefined,
		accessibility_caption: media.accessibilityCaption,
		taken_at_timestamp: media.takenAt,
		edge_liked_by: { count: state.likeCount(media) },
		edge_media_preview_like: { count: state.likeCount(media) },
		edge_media_to_comment: { count: state.commentCount(media) },
		edge_media_to_caption: { edges: media.caption ? [{ node: { text: media.caption } }] : [] },
		comments_disabled: false,
		location: place
			? { id: place.pk, name: place.name, slug: place.shortName.toLowerCase(), has_public_page: true }
			: null,
		owner: { id: media.ownerPk, username: owner?.username ?? '' },
		edge_sidecar_to_children:
			media.mediaType === 8
				? {
						edges: media.children.map((child, index) => ({
							node: {
								__typename: child.mediaType === 2 ? 'GraphVideo' : 'GraphImage',
								id: String(child.pk),
								shortcode: media.code,
								display_url: imageUrl(origin, `${media.code}-${index + 1}`, child.width, child.height),
								is_video: child.mediaType === 2
							}
						}))
					}
				: undefined
	}
}

/** A comment of `/media/{pk}/comments/` with up to two preview replies. */
export function commentView(
	context: ViewContext,
	comment: DemoComment,
	isRanked = false
): Record<string, unknown> {
	const author = context.state.user(comment.userPk)
	return {
		pk: comment.pk,
		user_id: comment.userPk,
		text: comment.text,
		type: comment.parentPk ? 2 : 0,
		created_at: comment.createdAt,
		created_at_utc: comment.createdAt,
		content_type: 'comment',
		status: 'Active',
		bit_flags: 0,
		did_report_as_spam: false,
		share_enabled: false,
		user: author
			? { ...userShort(context, author), profile_pic_url: profilePicUrl(context.origin, author) }
			: null,
		is_covered: false,
		is_ranked_comment: isRanked,
		is_edited: false,
		media_id: comment.mediaPk,
		has_liked_comment: false,
		comment_like_count: comment.likeCount,
		child_comment_count: comment.replies.length,
		parent_comment_id: comment.parentPk ?? undefined,
		preview_child_comments: comment.replies.slice(0, 2).map((reply) => commentView(context, reply)),
		private_reply_status: 0
	}
}
