/** Request headers of the playground's API in its OpenAPI document (docs/api-contract.md, "System endpoints" and "Saving"). */
import type { JsonSchema } from './schemas'

/**
 * The request headers an operation reads besides the access token: X-Smkit-Poll on every `/api/`
 * request (a page's own polling, left out of the history), X-Smkit-Load-More on a list page asked
 * with `cursor` (the page joins the list it continues, so a save holds every page loaded).
 */
export function headerParameters(path: string, parameters: JsonSchema[]): JsonSchema[] {
	if (!path.startsWith('/api/')) return []
	const poll = {
		name: 'X-Smkit-Poll',
		in: 'header',
		required: false,
		description: 'Any value: the request is neither counted nor recorded in the history (a page polling).',
		schema: { type: 'string' }
	}
	if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'cursor')) return [poll]
	const loadMore = {
		name: 'X-Smkit-Load-More',
		in: 'header',
		required: false,
		description:
			'Any value, on a page asked with `cursor`: the page continues the list of the page before it ("Load more"), so the result POST /api/save writes holds every page loaded so far.',
		schema: { type: 'string' }
	}
	return [poll, loadMore]
}
