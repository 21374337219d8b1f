/** Place and hashtag normalisation (search results, media locations, hashtag info). */
import { toId } from '../json'
import type { Hashtag, Place } from '../types'
import { asObject, count, flagOrNull, idOrNull, numberOrNull, text, textOrNull } from './values'

/** A `Place` from a location object; `item` adds the search result's title and subtitle. */
export function normalizePlace(location: unknown, item?: unknown): Place {
	const raw = asObject(location)
	const wrapper = asObject(item)
	return {
		pk: toId(raw.pk ?? raw.id ?? raw.facebook_places_id),
		name: text(raw.name ?? wrapper.title),
		title: textOrNull(wrapper.title),
		subtitle: textOrNull(wrapper.subtitle),
		address: textOrNull(raw.address),
		city: textOrNull(raw.city),
		short_name: textOrNull(raw.short_name),
		lat: numberOrNull(raw.lat),
		lng: numberOrNull(raw.lng),
		facebook_places_id: idOrNull(raw.facebook_places_id)
	}
}

/** A `Hashtag` from `/tags/{tag}/info/`, `/tags/search/` or topsearch. */
export function normalizeHashtag(value: unknown): Hashtag {
	const raw = asObject(value)
	return {
		id: toId(raw.id ?? raw.pk),
		name: text(raw.name),
		media_count: count(raw.media_count),
		following: flagOrNull(raw.following),
		profile_pic_url: textOrNull(raw.profile_pic_url),
		subtitle: textOrNull(raw.search_result_subtitle)
	}
}
