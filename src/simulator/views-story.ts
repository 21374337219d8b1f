/**
 * Stories in Instagram's JSON shape (docs/instagram.md, "Endpoints"): the item of a reel, with its
 * stickers (mentions, hashtag, place, poll, link). Story pks are bigint, written as exact bare numbers.
 */
import type { DemoStory } from './dataset-types'
import { mediaPkTime } from './shortcode'
import { imageVersions, locationView, videoVersions } from './views-media'
import { userShort, type ViewContext } from './views-user'

/** A `<story>` item; its times are relative to the request time, so it is always active. */
export function storyItem(context: ViewContext, story: DemoStory) {
	const { state, origin } = context
	const owner = state.user(story.ownerPk)
	const takenAt = context.now - story.ageSeconds
	const key = `story-${story.pk}`
	const place = story.locationPk ? state.data.placeByPk.get(story.locationPk) : undefined
	const sticker = { x: 0.5, y: 0.5, width: 0.4, height: 0.1, rotation: 0 }
	return {
		pk: story.pk,
		id: `${story.pk}_${story.ownerPk}`,
		media_type: story.mediaType,
		product_type: 'story',
		taken_at: takenAt,
		expiring_at: takenAt + 86400,
		device_timestamp: mediaPkTime(story.pk) * 1000,
		user: owner ? userShort(context, owner) : null,
		image_versions2: imageVersions(origin, key, 1080, 1920),
		original_width: 1080,
		original_height: 1920,
		video_versions: story.mediaType === 2 ? videoVersions(origin, key, 1080, 1920) : undefined,
		video_duration: story.videoDuration ?? undefined,
		reel_mentions: story.mentionPks.flatMap((pk) => {
			const mentioned = state.user(pk)
			return mentioned ? [{ ...sticker, user: userShort(context, mentioned) }] : []
		}),
		story_hashtags: story.hashtag
			? [
					{
						...sticker,
						hashtag: { name: story.hashtag, id: state.data.hashtags.get(story.hashtag)?.id ?? 0 }
					}
				]
			: [],
		story_locations: place ? [{ ...sticker, location: locationView(place) }] : [],
		story_polls: story.pollQuestion
			? [
					{
						...sticker,
						poll_sticker: {
							question: story.pollQuestion,
							tallies: [
								{ text: 'Yes', count: 12 },
								{ text: 'No', count: 7 }
							]
						}
					}
				]
			: [],
		story_cta: story.linkUrl ? [{ links: [{ linkType: 1, webUri: story.linkUrl }] }] : undefined,
		story_link_stickers: story.linkUrl
			? [{ ...sticker, story_link: { url: story.linkUrl, link_title: 'See more' } }]
			: [],
		viewer_count: context.viewerPk === story.ownerPk ? story.viewerCount : undefined,
		can_reply: true,
		can_reshare: true
	}
}
