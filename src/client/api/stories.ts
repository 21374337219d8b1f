/**
 * `ig.stories`: a user's active stories, highlights and the viewer's stories tray (docs/instagram.md,
 * "Stories").
 */
import { normalizeHighlight, normalizeStory, normalizeTrayItem } from '../normalize/stories'
import { normalizeUserRef } from '../normalize/user'
import { asArray, asObject } from '../normalize/values'
import { type ListOptions, type Page, paginateWhole } from '../pagination'
import type { Highlight, ReelTrayItem, Story } from '../types'
import { ApiGroup, call, requirePk } from './base'

/** Stories. */
export class Stories extends ApiGroup {
	/** Active stories of a user: `GET /api/v1/feed/user/{pk}/story/` → `reel.items` [get_stories]. */
	async getUserStories(userPk: string, options: ListOptions = {}): Promise<Page<Story>> {
		const pk = requirePk('userPk', userPk)
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/feed/user/{pk}/story/', {
				params: { pk },
				// No active stories: `reel` is null.
				list: 'reel?.items',
				category: 'get_stories',
				signal: options.signal
			})
			const reel = asObject(body.reel)
			const owner = reel.user ? normalizeUserRef(reel.user) : undefined
			return asArray(reel.items).map((item) => normalizeStory(item, owner))
		}, options)
	}

	/** Highlights of a user: `GET /api/v1/highlights/{pk}/highlights_tray/` → `tray` [get_default]. */
	async getHighlights(userPk: string, options: ListOptions = {}): Promise<Page<Highlight>> {
		const pk = requirePk('userPk', userPk)
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/highlights/{pk}/highlights_tray/', {
				params: { pk },
				list: 'tray',
				category: 'get_default',
				signal: options.signal
			})
			return asArray(body.tray).map(normalizeHighlight)
		}, options)
	}

	/** The viewer's stories tray: `GET /api/v1/feed/reels_tray/` → `tray` [get_stories]. */
	async getTray(options: ListOptions = {}): Promise<Page<ReelTrayItem>> {
		return paginateWhole(async () => {
			const body = await call(this.client, '/api/v1/feed/reels_tray/', {
				list: 'tray',
				category: 'get_stories',
				signal: options.signal
			})
			return asArray(body.tray).map(normalizeTrayItem)
		}, options)
	}
}
