/**
 * The one place that decides what an upstream answer means (docs/instagram.md, "Errors"): success
 * data, or exactly one typed `IgApiError`. `request.ts` calls it for every response.
 */
import { IgApiError, type IgErrorKind } from './errors'
import { parseUpstreamJson } from './json'
import { redactSecrets, redactValue } from './redact'

/** The parts of an upstream response the classification looks at (body already read). */
export interface UpstreamAnswer {
	status: number
	headers: Headers
	text: string
}

/** Where the answer came from, for messages, and what the caller expects. */
export interface AnswerContext {
	/** HTTP method, e.g. `GET`. */
	method: string
	/** Path without the query string, e.g. `/api/v1/users/web_profile_info/`. */
	endpoint: string
	/** `json` (default) parses the body; `text` returns it as is (HTML strategies). */
	expect?: 'json' | 'text'
	/** Values that must never appear in a message (cookies, tokens); a function is only called for a failure. */
	secrets?: readonly string[] | (() => readonly string[])
}

/** Classification result: the parsed body, or the error to throw. */
export type Classification = { ok: true; data: unknown } | { ok: false; error: IgApiError }

type Body = Record<string, unknown>

/** Lower-cased message substrings, first match wins (docs/instagram.md, "Errors"). */
const MESSAGE_KINDS: readonly [string, IgErrorKind, string][] = [
	['login', 'login_required', 'login required'],
	['useragent mismatch', 'upstream_error', 'user agent mismatch (set USER_AGENT to your browser user agent)'],
	['challenge', 'challenge_required', 'challenge required'],
	['checkpoint', 'challenge_required', 'checkpoint required'],
	['consent', 'challenge_required', 'consent required'],
	['user_not_found', 'not_found', 'not found'],
	['not_found', 'not_found', 'not found'],
	['not found', 'not_found', 'not found'],
	['not authorized to view user', 'private_account', 'private account'],
	['private', 'private_account', 'private account'],
	['please wait a few minutes', 'rate_limited', 'rate limited'],
	['too many requests', 'rate_limited', 'rate limited']
]

/** How much of a page is searched for the login page's marks (they are in its head and body tag). */
const LOGIN_PAGE_SCAN = 5000

/**
 * Whether an HTML answer is Instagram's login page itself (docs/instagram.md, "Errors"): the
 * `LoginAndSignupPage` mark, a `<title>` "Login • Instagram" (or "Log in ..."), or a form posting
 * to the login endpoint `/accounts/login/ajax/`. A page that only links to the login page (a
 * proxy's or network's block page, "Sorry, this page isn't available") is not: that says nothing
 * about the session.
 */
export function isLoginPage(text: string): boolean {
	const head = text.slice(0, LOGIN_PAGE_SCAN)
	return (
		head.includes('LoginAndSignupPage') ||
		/<title[^>]*>\s*Log\s?in\b[^<]*Instagram/i.test(head) ||
		/<form\b[^>]*\baction\s*=\s*["']?(?:https?:\/\/[^/"'\s>]*)?\/accounts\/login\/ajax\//i.test(head)
	)
}

/** Seconds from a `Retry-After` header (delta seconds or HTTP date); undefined when absent or bad. */
export function parseRetryAfter(value: string | null): number | undefined {
	if (!value) return undefined
	if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value)
	const date = Date.parse(value)
	return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

/** The longest part of Instagram's message an error quotes. */
const QUOTED_MESSAGE_CHARS = 200

/** The human-readable upstream message, whole (see `fail`: redacted, then shortened); never the raw body. */
function upstreamMessage(body: Body | undefined): string {
	const candidates = [body?.message, body?.feedback_message, body?.error_title, body?.error_type]
	const message = candidates.find((value) => typeof value === 'string' && value.length > 0) as
		| string
		| undefined
	return message ?? ''
}

function secretsOf(context: AnswerContext): readonly string[] {
	return typeof context.secrets === 'function' ? context.secrets() : (context.secrets ?? [])
}

/**
 * Maps an upstream answer to its data or one `IgApiError`, in the order of docs/instagram.md, "Errors":
 * 429, 401, 404, redirect to login, login bodies, challenge/checkpoint/consent, spam, message
 * classification, 5xx, non-JSON bodies. Messages name the method and endpoint.
 */
export function classifyResponse(answer: UpstreamAnswer, context: AnswerContext): Classification {
	const { status, headers, text } = answer
	let parsed: unknown
	try {
		parsed = parseUpstreamJson(text)
	} catch {
		parsed = undefined
	}
	const body =
		parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Body) : undefined
	const message = upstreamMessage(body)
	const fail = (
		kind: IgErrorKind,
		reason: string,
		extra: { retryAfter?: number; challengeUrl?: string } = {}
	) => {
		// Instagram's own words first, then what smkit read them as and the request they answered:
		// `Instagram: User not found (not found, HTTP 404 from GET ...)`. A plain "error" adds nothing.
		// Secrets are taken out before anything is cut: a secret cut in two no longer matches, and its
		// first half would stay.
		const secrets = secretsOf(context)
		const redact = (text: string) => redactSecrets(text, secrets)
		const words = redact(message).slice(0, QUOTED_MESSAGE_CHARS)
		const reasonSaid = words && reason !== 'error' && !reason.includes(words) ? `${reason}, ` : ''
		const description = `Instagram: ${words || reason} (${reasonSaid}HTTP ${status} from ${context.method} ${context.endpoint})`
		const endpoint = `${context.method} ${context.endpoint}`
		const error = new IgApiError(kind, redact(description), {
			upstreamStatus: status,
			body: body ? redactValue(body, redact) : redact(answer.text).slice(0, 500),
			endpoint,
			...extra
		})
		return { ok: false as const, error }
	}

	if (status === 429)
		return fail('rate_limited', 'rate limited', { retryAfter: parseRetryAfter(headers.get('retry-after')) })
	if (status === 401) return fail('login_required', 'login required')
	if (status === 404) return fail('not_found', 'not found')
	if (status >= 300 && status < 400) {
		const location = headers.get('location') ?? ''
		if (!location || location.includes('/accounts/login') || location.endsWith('/#'))
			return fail('login_required', 'login required: redirected to the login page')
		return fail('upstream_error', 'unexpected redirect')
	}
	const isFailBody = body !== undefined && (status === 400 || status === 403 || body.status === 'fail')
	if (
		body &&
		(status === 400 || status === 403 || status < 300) &&
		(body.require_login || body.message === 'login_required')
	)
		return fail('login_required', 'login required')
	if (isFailBody) {
		const challenge = body.challenge as { url?: unknown; api_path?: unknown } | undefined
		if (challenge && typeof challenge === 'object') {
			const url = typeof challenge.url === 'string' ? challenge.url : String(challenge.api_path ?? '')
			return fail('challenge_required', 'challenge required', { challengeUrl: url || undefined })
		}
		if (typeof body.checkpoint_url === 'string')
			return fail('challenge_required', 'checkpoint required', { challengeUrl: body.checkpoint_url })
		if (body.consent_required) return fail('challenge_required', 'consent required')
		if (body.spam) return fail('rate_limited', 'spam detected')
		const lower = message.toLowerCase()
		const match = MESSAGE_KINDS.find(([needle]) => lower.includes(needle))
		if (match) return fail(match[1], match[2])
		// Instagram refused a request it did not explain: its failure (502), never one of the
		// caller's values (our 400 names the field at fault, which nothing here knows).
		return fail('upstream_error', 'error')
	}
	if (status >= 500) return fail('upstream_error', 'server error')
	// A 403 that is not JSON ends the session only as the login page or with Instagram's own code.
	if (status === 403 && (isLoginPage(text) || /\blogin_required\b/.test(text.slice(0, LOGIN_PAGE_SCAN))))
		return fail('login_required', 'login required')
	if (status < 200 || status >= 300) return fail('upstream_error', 'unexpected answer')
	if (context.expect === 'text') return { ok: true, data: text }
	if (parsed === undefined) {
		// Only a page (HTML) can be the login page: a JSON answer cut short whose records hold
		// `login_id` or `last_login` is malformed, not a lost session (which would mark it expired).
		const page = /^\s*</.test(text)
		if (page && isLoginPage(text))
			return fail('login_required', 'login required: answered with the login page')
		return fail('upstream_error', page ? 'answered with a page, not JSON' : 'malformed JSON')
	}
	return { ok: true, data: parsed }
}
