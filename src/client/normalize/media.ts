/**
 * Media normalisation (docs/instagram.md, "Media"): private-API items (`/media/{pk}/info/`, feeds) and
 * GraphQL nodes (web_profile_info edges, public posts) both become a `Media`.
 */
import { toId } from '../json'
import { pkToShortcode } from '../shortcode'
import type { CarouselItem, ImageVersion, Media, MediaV2, Music, UserShort } from '../types'
import { normalizePlace } from './search'
import { normalizeUserRef, normalizeUserShort } from './user'
import {
	asArray,
	asObject,
	count,
	countOrNull,
	flag,
	flagOrNull,
	idOrNull,
	type Raw,
	text,
	textOrNull
} from './values'

/** `{width, height, url}` renditions, largest first. */
export function versions(value: unknown): ImageVersion[] {
	return asArray(value)
		.map((version) => ({
			width: count(version.width),
			height: count(version.height),
			url: text(version.url)
		}))
		.filter((version) => version.url !== '')
		.sort((left, right) => right.width - left.width)
}

function shortcodeOf(raw: Raw, pk: string): string {
	const code = text(raw.code ?? raw.shortcode)
	if (code) return code
	return /^\d+$/.test(pk) ? pkToShortcode(pk) : ''
}

function music(raw: Raw): Music | null {
	const info = asObject(asObject(raw.music_metadata).music_info ?? asObject(raw.clips_metadata).music_info)
	const asset = asObject(info.music_asset_info)
	if (Object.keys(asset).length === 0) return null
	return {
		id: idOrNull(asset.audio_cluster_id ?? asset.id),
		title: textOrNull(asset.title),
		artist: textOrNull(asset.display_artist),
		duration_ms: countOrNull(asset.duration_in_ms),
		cover_url: textOrNull(asset.cover_artwork_uri)
	}
}

function carouselItem(value: unknown): CarouselItem {
	const raw = asObject(value)
	const images = versions(asObject(raw.image_versions2).candidates)
	const pk = toId(raw.pk ?? text(raw.id).split('_')[0])
	return {
		pk,
		id: text(raw.id, pk),
		media_type: count(raw.media_type) || 1,
		thumbnail_url: images[0]?.url ?? null,
		image_versions: images,
		video_versions: versions(raw.video_versions)
	}
}

/** A `Media` from a private-API media item. */
export function normalizeMedia(value: unknown): Media {
	const raw = asObject(value)
	const user: UserShort = normalizeUserShort(raw.user ?? raw.owner)
	const pk = toId(raw.pk ?? text(raw.id).split('_')[0])
	const images = versions(asObject(raw.image_versions2).candidates)
	const carousel = asArray(raw.carousel_media).map(carouselItem)
	return {
		pk,
		id: text(raw.id) || (user.pk ? `${pk}_${user.pk}` : pk),
		code: shortcodeOf(raw, pk),
		media_type: count(raw.media_type) || 1,
		product_type: textOrNull(raw.product_type),
		taken_at: count(raw.taken_at),
		caption_text: text(asObject(raw.caption).text),
		like_count: count(raw.like_count),
		comment_count: count(raw.comment_count),
		play_count: countOrNull(raw.play_count ?? raw.ig_play_count),
		view_count: countOrNull(raw.view_count ?? raw.video_view_count),
		reshare_count: countOrNull(raw.reshare_count),
		user,
		thumbnail_url:
			images[0]?.url ?? carousel[0]?.thumbnail_url ?? textOrNull(raw.thumbnail_url ?? raw.display_url),
		image_versions: images,
		video_versions: versions(raw.video_versions),
		carousel_media_count: countOrNull(raw.carousel_media_count) ?? (carousel.length || null),
		carousel,
		location: raw.location ? normalizePlace(raw.location) : null,
		music: music(raw),
		has_liked: flagOrNull(raw.has_liked),
		has_saved: flagOrNull(raw.has_viewer_saved ?? raw.has_saved),
		accessibility_caption: textOrNull(raw.accessibility_caption),
		is_paid_partnership: flag(raw.is_paid_partnership),
		tagged_users: asArray(asObject(raw.usertags).in).map((tag) => normalizeUserRef(tag.user)),
		coauthors: asArray(raw.coauthor_producers).map(normalizeUserRef),
		top_likers: [
			...new Set(
				asArray(raw.facepile_top_likers)
					.map((liker) => text(liker.username))
					.concat(Array.isArray(raw.top_likers) ? raw.top_likers.map((name: unknown) => text(name)) : [])
					.filter(Boolean)
			)
		]
	}
}

const GRAPH_TYPES: Record<string, number> = {
	GraphImage: 1,
	GraphVideo: 2,
	GraphSidecar: 8,
	XDTGraphImage: 1
}

/** A `Media` from a GraphQL timeline node (web_profile_info edges, public query_hash pages). */
export function normalizeGraphMedia(value: unknown, owner?: UserShort): Media {
	const node = asObject(value)
	const user = owner ?? normalizeUserShort(node.owner)
	const pk = toId(node.id)
	const dimensions = asObject(node.dimensions)
	const display = text(node.display_url)
	const images = display
		? [{ width: count(dimensions.width), height: count(dimensions.height), url: display }]
		: []
	const videoUrl = text(node.video_url)
	const children = asArray(asObject(node.edge_sidecar_to_children).edges).map((edge) => asObject(edge.node))
	const typeName = text(node.__typename)
	const mediaType = GRAPH_TYPES[typeName] ?? (children.length ? 8 : flag(node.is_video) ? 2 : 1)
	return {
		pk,
		id: user.pk ? `${pk}_${user.pk}` : pk,
		code: shortcodeOf(node, pk),
		media_type: mediaType,
		product_type: textOrNull(node.product_type),
		taken_at: count(node.taken_at_timestamp ?? node.taken_at),
		caption_text: text(asObject(asObject(asArray(asObject(node.edge_media_to_caption).edges)[0]).node).text),
		like_count: count(asObject(node.edge_liked_by).count ?? asObject(node.edge_media_preview_like).count),
		comment_count: count(asObject(node.edge_media_to_comment).count),
		play_count: null,
		view_count: countOrNull(node.video_view_count),
		reshare_count: null,
		user,
		thumbnail_url: textOrNull(node.thumbnail_src) ?? textOrNull(display),
		image_versions: images,
		video_versions: videoUrl
			? [{ width: count(dimensions.width), height: count(dimensions.height), url: videoUrl }]
			: [],
		carousel_media_count: children.length || null,
		carousel: children.map((child) => ({
			pk: toId(child.id),
			id: toId(child.id),
			media_type: flag(child.is_video) ? 2 : 1,
			thumbnail_url: textOrNull(child.display_url),
			image_versions: child.display_url ? [{ width: 0, height: 0, url: text(child.display_url) }] : [],
			video_versions: child.video_url ? [{ width: 0, height: 0, url: text(child.video_url) }] : []
		})),
		location: node.location ? normalizePlace(node.location) : null,
		music: null,
		has_liked: null,
		has_saved: null,
		accessibility_caption: textOrNull(node.accessibility_caption),
		is_paid_partnership: flag(node.is_paid_partnership),
		tagged_users: [],
		coauthors: [],
		top_likers: []
	}
}

/** The v2 normalisation: shortcode, type name, reel flag and best-first image/video lists. */
export function toMediaV2(media: Media): MediaV2 {
	const isReel = media.product_type === 'clips'
	const typeName =
		media.media_type === 8 ? 'carousel' : media.media_type === 2 ? (isReel ? 'reel' : 'video') : 'photo'
	const fromCarousel = (key: 'image_versions' | 'video_versions') =>
		media.carousel.flatMap((item) => item[key].slice(0, 1))
	return {
		...media,
		shortcode: media.code,
		media_type_name: typeName,
		is_reel: isReel,
		images: media.image_versions.length ? media.image_versions : fromCarousel('image_versions'),
		videos: media.video_versions.length ? media.video_versions : fromCarousel('video_versions')
	}
}
