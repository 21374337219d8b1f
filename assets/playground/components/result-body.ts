/**
 * What a result shows under its toolbar: the views its data allows (Table, Tree, Images, Raw) and
 * each view's content, or the sentence of an empty list.
 */

import { h } from '../../common/dom'
import { POST_COMMENTS_PATH } from '../lib/jobs'
import { openRequest } from '../lib/open-request'
import { type CellAction, dataTable, fieldTable, type TableSort } from './data-table'
import { collectImages, gallery } from './gallery'
import { jsonTree, setTreeExpanded } from './json-tree'

/** The views of a result. */
export type ViewName = 'table' | 'tree' | 'images' | 'raw'

/** Each view's tab label. */
export const VIEW_LABELS: Record<ViewName, string> = {
	table: 'Table',
	tree: 'Tree',
	images: 'Images',
	raw: 'Raw'
}

/** What a search finds, by the last segment of its path. */
const SEARCHED: Record<string, string> = { users: 'accounts', hashtags: 'hashtags', places: 'places' }

/** The sentence an empty list shows: "No accounts match 'zzz'" for a search, else a plain one. */
export function emptyListText(path: string | null): string {
	const url = new URL(path ?? '/', 'http://local')
	const query = url.searchParams.get('q')
	if (query !== null) {
		const searched = SEARCHED[url.pathname.split('/').pop() ?? ''] ?? 'results'
		return `No ${searched} match '${query}'.`
	}
	return 'Nothing here: the list is empty.'
}

/** The body of an empty list. */
export function emptyList(path: string | null): HTMLElement {
	return h(
		'div',
		{ className: 'result-body' },
		h('p', { className: 'result-empty result-none', text: emptyListText(path) })
	)
}

/** The views `data` can be shown in: a table for records or an object, images when it has any. */
export function availableViews(data: unknown): ViewName[] {
	const views: ViewName[] = []
	if (Array.isArray(data) ? data.length > 0 : data !== null && typeof data === 'object') views.push('table')
	views.push('tree')
	if (collectImages(data, 1).length > 0) views.push('images')
	views.push('raw')
	return views
}

/** The view a result opens in: the table for a list of records, else the tree. */
export function defaultView(data: unknown, views: readonly ViewName[]): ViewName {
	return Array.isArray(data) &&
		views.includes('table') &&
		data.every((item) => item !== null && typeof item === 'object')
		? 'table'
		: 'tree'
}

/**
 * What a result's table offers on its rows: under a post's comments, a comment with more replies
 * than the two it carries gets a button that opens all of them (Media, Comment replies).
 */
export function tableAction(path: string | null): CellAction | undefined {
	const media = POST_COMMENTS_PATH.exec(path ?? '')?.[1]
	if (!media) return undefined
	return {
		column: 'reply_count',
		label: (row) => {
			const count = typeof row.reply_count === 'number' ? row.reply_count : 0
			const carried = Array.isArray(row.replies) ? row.replies.length : 0
			return count > carried ? 'Show all' : null
		},
		run: (row) => openRequest(`/api/media/comments/${media}/replies/${encodeURIComponent(String(row.pk))}`)
	}
}

/** The content of view `name` for `data` (`action`: see tableAction; `sort`: the table's order, kept). */
export function viewContent(
	name: ViewName,
	data: unknown,
	action?: CellAction,
	sort?: TableSort
): HTMLElement {
	if (name === 'table')
		return Array.isArray(data) ? dataTable(data, action, sort) : fieldTable(data as Record<string, unknown>)
	if (name === 'images') return gallery(collectImages(data))
	if (name === 'raw')
		return h('pre', { className: 'raw-json', text: JSON.stringify(data, null, 2), attrs: { tabindex: 0 } })
	const tree = jsonTree(data)
	const tools = h(
		'div',
		{ className: 'tree-tools' },
		h('button', {
			className: 'button button-small',
			text: 'Expand all',
			attrs: { type: 'button' },
			on: { click: () => setTreeExpanded(tree, true) }
		}),
		h('button', {
			className: 'button button-small',
			text: 'Collapse all',
			attrs: { type: 'button' },
			on: { click: () => setTreeExpanded(tree, false) }
		})
	)
	return h('div', null, tools, tree)
}
