/**
 * The data panels and their endpoints (docs/api-contract.md and /openapi), declared once: the forms, the deep
 * links and History's "re-run" all read this table. Presets name records that exist in the demo
 * data set, so every example works with `--demo`.
 */
import { ACCOUNT_PANELS } from './catalog-account'
import { CONTENT_PANELS } from './catalog-content'
import type { ActionSpec, DataPanelSpec } from './catalog-fields'

export type { ActionSpec, DataPanelSpec, FieldSpec, Preset } from './catalog-fields'

/** Every data panel, in navigation order. */
export const DATA_PANELS: DataPanelSpec[] = [...CONTENT_PANELS, ...ACCOUNT_PANELS]

/** A request path matched back to its panel, action and field values (History's re-run). */
export interface MatchedRequest {
	panel: DataPanelSpec
	action: ActionSpec
	values: Record<string, string>
	/** Query values the form has no field for, such as the `cursor` of a later page. */
	extra: Record<string, string>
}

/** Finds the panel action a GET path (with query) belongs to, or null. */
export function matchRequest(pathWithQuery: string): MatchedRequest | null {
	let url: URL
	try {
		url = new URL(pathWithQuery, 'http://playground.invalid')
	} catch {
		return null
	}
	for (const panel of DATA_PANELS) {
		for (const action of panel.actions) {
			const names: string[] = []
			const pattern = action.path
				.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
				.replace(/\{(\w+)\}/g, (_match, name: string) => {
					names.push(name)
					return '([^/]+)'
				})
			const match = new RegExp(`^${pattern}$`).exec(url.pathname)
			if (!match) continue
			const values: Record<string, string> = {}
			names.forEach((name, index) => {
				try {
					values[name] = decodeURIComponent(match[index + 1])
				} catch {
					values[name] = match[index + 1]
				}
			})
			const extra: Record<string, string> = {}
			for (const [name, value] of url.searchParams) {
				const field = action.fields.find((candidate) => candidate.in === 'query' && candidate.name === name)
				if (field) values[name] = value
				else if (name !== 'token') extra[name] = value
			}
			return { panel, action, values, extra }
		}
	}
	return null
}
