/**
 * Building blocks of the endpoint catalog: the field and panel types, the demo presets (records
 * that exist in the demo data set, docs/architecture.md, "Demo mode and the simulator") and small field builders.
 */
import type { ApiGroupName } from '../../../src/client/client'

/** A suggested value shown as a clickable chip beside an input. */
export interface Preset {
	label: string
	value: string
}

/** One input of an endpoint form. */
export interface FieldSpec {
	name: string
	label: string
	in: 'path' | 'query'
	kind?: 'text' | 'number' | 'url'
	value?: string
	placeholder?: string
	hint?: string
	required?: boolean
	min?: number
	max?: number
	presets?: Preset[]
	/** What the API accepts (checked on the trimmed value) and the message it gives otherwise. */
	rule?: { pattern: RegExp; message: string }
	/** A mark people type before the value (`@luna.explorer`, `#sunset`): left out of the request. */
	sigil?: '@' | '#'
}

/** The value a field sends: trimmed, without its sigil. */
export function fieldValue(field: FieldSpec, typed: string): string {
	const value = typed.trim()
	// A number field takes `1e1` for 10; the API takes plain digits only.
	if (field.kind === 'number' && value !== '' && Number.isSafeInteger(Number(value)))
		return String(Number(value))
	return field.sigil && value.startsWith(field.sigil) ? value.slice(1).trim() : value
}

/** One endpoint of a panel. */
export interface ActionSpec {
	id: string
	label: string
	path: string
	description: string
	fields: FieldSpec[]
	/** False for the anonymous endpoints that work without a session. */
	login?: boolean
}

/** A data panel: a group of endpoints sharing one result view. */
export interface DataPanelSpec {
	/** The API group the panel serves. */
	id: ApiGroupName
	title: string
	description: string
	actions: ActionSpec[]
}

/** Demo usernames. */
export const USERNAMES: Preset[] = [
	{ label: 'luna.explorer', value: 'luna.explorer' },
	{ label: 'private.pat', value: 'private.pat' },
	{ label: 'smkit_demo (me)', value: 'smkit_demo' }
]
/** Demo user pks. */
export const USER_PKS: Preset[] = [
	{ label: 'luna.explorer', value: '1000000002' },
	{ label: 'private.pat', value: '1000000003' },
	{ label: 'me', value: '1000000001' }
]
/** luna.explorer's three real posts. */
export const MEDIA_PKS: Preset[] = [
	{ label: 'DVUVYxwAOOz', value: '3842790443716764595' },
	{ label: 'DVMlhZ8ACcm', value: '3840609605554022182' },
	{ label: 'DUQoGM4juNA', value: '3823732431648645952' }
]
/** Demo hashtags. */
export const TAGS: Preset[] = [
	{ label: 'sunset', value: 'sunset' },
	{ label: 'travel', value: 'travel' },
	{ label: 'coffee', value: 'coffee' }
]

/** The API's rules for path parameters, with its own messages (src/playground/routes/params.ts). */
const RULES = {
	username: {
		pattern: /^[A-Za-z0-9._]{1,30}$/,
		message: "Invalid path parameter 'username': use letters, digits, . or _ (1-30 characters)"
	},
	userPk: (name: string) => ({
		pattern: /^[0-9]{1,20}$/,
		message: `Invalid path parameter '${name}': expected a numeric id`
	}),
	mediaPk: {
		pattern: /^[0-9]{1,25}(_[0-9]{1,20})?$/,
		message: "Invalid path parameter 'media_pk': expected a numeric media id"
	}
}

/** A username path field (default luna.explorer). */
export function username(value = 'luna.explorer'): FieldSpec {
	return {
		name: 'username',
		label: 'Username',
		in: 'path',
		value,
		required: true,
		presets: USERNAMES,
		rule: RULES.username,
		sigil: '@'
	}
}
/** A hashtag path field named `name` (default sunset); a leading # is left out. */
export function hashtag(name: string): FieldSpec {
	return {
		name,
		label: 'Hashtag',
		in: 'path',
		value: 'sunset',
		required: true,
		presets: TAGS,
		sigil: '#',
		// The server's rule (letters, marks and digits of any script, or _), with its message.
		rule: {
			pattern: /^[\p{L}\p{M}\p{N}_]{1,100}$/u,
			message: `Invalid path parameter '${name}': a hashtag is letters, digits or _ of any script (1-100 characters, no #)`
		}
	}
}
/** A user pk path field (default luna.explorer's). */
export function userPk(name = 'user_pk'): FieldSpec {
	return {
		name,
		label: 'User ID (pk)',
		in: 'path',
		value: '1000000002',
		required: true,
		presets: USER_PKS,
		rule: RULES.userPk(name)
	}
}
/** A media pk path field (default DVUVYxwAOOz). */
export function mediaPk(value = MEDIA_PKS[0].value): FieldSpec {
	return {
		name: 'media_pk',
		label: 'Media ID (pk)',
		in: 'path',
		value,
		required: true,
		presets: MEDIA_PKS,
		rule: RULES.mediaPk
	}
}
/** luna.explorer's post DIGTDkeJd6Y and its comment with four replies (two shown under it). */
export const THREAD = { mediaPk: '3604652359959305880', commentPk: '18928815347468480' }

/** A comment pk path field (default THREAD's comment). */
export function commentPk(): FieldSpec {
	return {
		name: 'comment_pk',
		label: 'Comment ID (pk)',
		in: 'path',
		value: THREAD.commentPk,
		required: true,
		hint: "A comment's pk, from Comments",
		rule: {
			pattern: /^[0-9]{1,25}$/,
			message: "Invalid path parameter 'comment_pk': expected a numeric comment id"
		}
	}
}
/** The `q` search field. */
export function query(value: string, presets: Preset[]): FieldSpec {
	return { name: 'q', label: 'Search text', in: 'query', value, required: true, presets }
}
/** The `count` query field with the server's default and range (docs/api-contract.md, "Pagination"). */
export function count(value: number, max: number): FieldSpec {
	return {
		name: 'count',
		label: 'Count',
		in: 'query',
		kind: 'number',
		value: String(value),
		min: 1,
		max,
		hint: `1 to ${max}`
	}
}
