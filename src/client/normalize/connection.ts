/**
 * GraphQL connections (docs/instagram.md, "Feed"): `edges[].node` lists with `page_info{has_next_page,
 * end_cursor}`. Posts sit in `node.media` or `node.explore_story.media`; ads and user suggestions
 * are skipped.
 */
import type { PageData } from '../types'
import { asArray, asObject, flag, type Raw, text } from './values'

/** `data[key]`, or else the first object below `data` (three levels deep) that has `edges`. */
export function findConnection(data: Raw, key: string): Raw | undefined {
	if (data[key] && typeof data[key] === 'object') return asObject(data[key])
	const queue: [Raw, number][] = [[data, 0]]
	while (queue.length) {
		const [node, depth] = queue.shift() as [Raw, number]
		if (Array.isArray(node.edges)) return node
		if (depth < 3)
			for (const value of Object.values(node))
				if (value && typeof value === 'object' && !Array.isArray(value)) queue.push([value, depth + 1])
	}
	return undefined
}

/** The page of a connection; `item` converts a node (undefined skips it). */
export function connectionPage<Item>(
	connection: Raw | undefined,
	item: (node: Raw) => Item | undefined
): PageData<Item> {
	const items: Item[] = []
	for (const edge of asArray(connection?.edges)) {
		const node = asObject(edge.node)
		if (node.ad || node.suggested_users) continue
		const converted = item(node)
		if (converted !== undefined) items.push(converted)
	}
	const pageInfo = asObject(connection?.page_info)
	const cursor = text(pageInfo.end_cursor)
	return { items, next_cursor: flag(pageInfo.has_next_page) && cursor ? cursor : null }
}

/** The media object of a feed node: `node.media`, `node.explore_story.media`, or a bare media node. */
export function nodeMedia(node: Raw): Raw | undefined {
	if (node.media && typeof node.media === 'object') return asObject(node.media)
	const story = asObject(asObject(node.explore_story).media)
	if (Object.keys(story).length) return story
	return node.pk !== undefined && node.media_type !== undefined ? node : undefined
}
