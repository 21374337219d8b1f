/** Story, highlight and reels-tray normalisation (docs/instagram.md, "Stories"). */
import { toId } from '../json'
import type { Highlight, ReelTrayItem, Story, UserRef } from '../types'
import { versions } from './media'
import { normalizePlace } from './search'
import { normalizeUserRef, normalizeUserShort } from './user'
import { asArray, asObject, count, countOrNull, flag, numberOrNull, text, textOrNull } from './values'

/** A `Story` from a reel item; `owner` is the reel's user when the item lacks its own. */
export function normalizeStory(value: unknown, owner?: UserRef): Story {
	const raw = asObject(value)
	const images = versions(asObject(raw.image_versions2).candidates)
	return {
		pk: toId(raw.pk ?? text(raw.id).split('_')[0]),
		id: text(raw.id),
		media_type: count(raw.media_type) || 1,
		taken_at: count(raw.taken_at),
		expiring_at: countOrNull(raw.expiring_at),
		video_duration: numberOrNull(raw.video_duration),
		thumbnail_url: images[0]?.url ?? null,
		image_versions: images,
		video_versions: versions(raw.video_versions),
		user: raw.user ? normalizeUserRef(raw.user) : (owner ?? null),
		mentions: asArray(raw.reel_mentions)
			.map((mention) => text(asObject(mention.user).username))
			.filter(Boolean),
		hashtags: asArray(raw.story_hashtags)
			.map((tag) => text(asObject(tag.hashtag).name))
			.filter(Boolean),
		locations: asArray(raw.story_locations).map((sticker) => normalizePlace(sticker.location)),
		links: asArray(raw.story_cta)
			.flatMap((cta) => asArray(cta.links))
			.map((link) => text(link.webUri ?? link.url))
			.filter(Boolean),
		polls: asArray(raw.story_polls).map((sticker) => {
			const poll = asObject(sticker.poll_sticker)
			return {
				question: text(poll.question),
				options: asArray(poll.tallies).map((tally) => text(tally.text))
			}
		}),
		viewer_count: countOrNull(raw.viewer_count)
	}
}

/** A `Highlight` from `highlights_tray` (`id` stays `highlight:<pk>`). */
export function normalizeHighlight(value: unknown): Highlight {
	const raw = asObject(value)
	const id = text(raw.id)
	return {
		id,
		pk: id.replace(/^highlight:/, ''),
		title: text(raw.title),
		media_count: count(raw.media_count),
		created_at: countOrNull(raw.created_at),
		updated_at: countOrNull(raw.updated_timestamp),
		is_pinned: flag(raw.is_pinned_highlight),
		cover_url: textOrNull(asObject(asObject(raw.cover_media).cropped_image_version).url)
	}
}

/** One account of the stories tray. `seen` is a timestamp upstream; true when it covers the latest story. */
export function normalizeTrayItem(value: unknown): ReelTrayItem {
	const raw = asObject(value)
	const latest = countOrNull(raw.latest_reel_media)
	const seen = typeof raw.seen === 'boolean' ? raw.seen : (countOrNull(raw.seen) ?? 0) >= (latest ?? 1)
	return {
		id: toId(raw.id ?? asObject(raw.user).pk),
		user: normalizeUserShort(raw.user),
		latest_reel_media: latest,
		seen,
		media_count: count(raw.media_count ?? asArray(raw.items).length),
		has_besties_media: flag(raw.has_besties_media)
	}
}
