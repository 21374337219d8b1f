/**
 * `ig.notifications`: the activity feed (docs/instagram.md, "Hashtags, notifications, direct"). Every
 * method reads
 * `POST /api/v1/news/inbox/` (a read despite the POST, so it is retried like a GET) [get_default].
 * The inbox comes in pages: a page that is not the last carries a `continuation_token`, sent back
 * in the form to get the next one.
 */
import { normalizeNotification } from '../normalize/social'
import { asArray, asObject, flag, numberOrNull, type Raw, textOrNull } from '../normalize/values'
import { type ListOptions, type Page, paginate } from '../pagination'
import type { Activity, Notification, NotificationCounts } from '../types'
import { ApiGroup, type CallSpec, call, type RequestOptions } from './base'

/** Notification names and story types (Instagram's numbering). */
const FOLLOW = { names: ['user_followed'], types: [101] }
const LIKE = { names: ['like', 'comment_like'], types: [60, 13] }
/** The lists of an inbox page. */
const STORIES = 'new_stories|old_stories'

/** Activity feed. */
export class Notifications extends ApiGroup {
	/**
	 * The first page of the activity inbox: counters, new and old notifications (args flattened). An
	 * answer without `counts` or the notification lists is malformed (upstream_error).
	 */
	async getActivity(options: RequestOptions = {}): Promise<Activity> {
		const body = await this.#inbox(options.signal, undefined, { list: STORIES, holds: 'counts' })
		return {
			counts: counts(body),
			last_checked: numberOrNull(body.last_checked),
			new_stories: asArray(body.new_stories).map((story) => normalizeNotification(story, 'new')),
			old_stories: asArray(body.old_stories).map((story) => normalizeNotification(story, 'old')),
			is_last_page: flag(body.is_last_page),
			continuation_token: textOrNull(body.continuation_token)
		}
	}

	/** Unread counters (`likes`, `comments`, `relationships`, `requests`, ...); without `counts`, malformed. */
	async getCounts(options: RequestOptions = {}): Promise<NotificationCounts> {
		return counts(await this.#inbox(options.signal, undefined, { holds: 'counts' }))
	}

	/** New then old notifications, each with its `args` flattened in. */
	async getParsed(options: ListOptions = {}): Promise<Page<Notification>> {
		return this.#filtered(options, () => true)
	}

	/** Only "started following you" notifications (`user_followed`, story type 101). */
	async getFollowNotifications(options: ListOptions = {}): Promise<Page<Notification>> {
		return this.#filtered(
			options,
			(item) => FOLLOW.names.includes(item.notif_name) || FOLLOW.types.includes(item.story_type)
		)
	}

	/** Only like notifications: post likes (`like`, 60) and comment likes (`comment_like`, 13). */
	async getLikeNotifications(options: ListOptions = {}): Promise<Page<Notification>> {
		return this.#filtered(
			options,
			(item) => LIKE.names.includes(item.notif_name) || LIKE.types.includes(item.story_type)
		)
	}

	async #filtered(options: ListOptions, keep: (item: Notification) => boolean): Promise<Page<Notification>> {
		return paginate(async (cursor) => {
			const body = await this.#inbox(options.signal, cursor, { list: STORIES })
			const items = [
				...asArray(body.new_stories).map((story) => normalizeNotification(story, 'new')),
				...asArray(body.old_stories).map((story) => normalizeNotification(story, 'old'))
			]
			const token = textOrNull(body.continuation_token)
			return { items: items.filter(keep), next_cursor: !flag(body.is_last_page) && token ? token : null }
		}, options)
	}

	async #inbox(
		signal: AbortSignal | undefined,
		continuationToken: string | null | undefined,
		shape: Pick<CallSpec, 'list' | 'holds'>
	): Promise<Raw> {
		return call(this.client, '/api/v1/news/inbox/', {
			...shape,
			method: 'POST',
			idempotent: true,
			form: continuationToken ? { continuation_token: continuationToken } : undefined,
			category: 'get_default',
			signal
		})
	}
}

/** Numeric counters of the inbox (non-numeric entries dropped). */
function counts(body: Raw): NotificationCounts {
	const result: NotificationCounts = {}
	for (const [key, value] of Object.entries(asObject(body.counts))) {
		const number = numberOrNull(value)
		if (number !== null) result[key] = number
	}
	return result
}
