/**
 * Fault injection for tests and benchmarks: latency, 429 bursts, 5xx, malformed JSON, challenge,
 * login expiry and hangs, and the faults of a list's pages (fault-bodies.ts): a page whose next
 * cursor is its own (`repeat_cursor`), the same page again under a new cursor each time
 * (`stale_page`), a success answer without its list (`wrong_shape`). Rules are matched in order
 * against the path and query of each upstream request; `times` limits how often a rule fires and
 * `probability` draws from a seeded generator.
 */
import { deriveSeed, Random } from './prng'

/** What a fault does to a matching request. */
export type FaultKind =
	| 'latency'
	| 'rate_limit'
	| 'server_error'
	| 'malformed'
	| 'challenge'
	| 'login'
	| 'hang'
	| 'repeat_cursor'
	| 'stale_page'
	| 'wrong_shape'

/** A fault rule (the shared contract). `status` and `format` refine `server_error`, `body` `wrong_shape`. */
export interface FaultRule {
	kind: FaultKind
	/** Chance that a matching request is hit, 0..1 (default 1). */
	probability?: number
	/** How many requests the rule hits before it stops (default: unlimited). */
	times?: number
	/** A regular expression source tested against the path and query (default: every request). */
	pathPattern?: string
	/** `latency`: the delay in ms (default 1000). */
	latencyMs?: number
	/** `rate_limit`: the Retry-After header in seconds (default 1). */
	retryAfter?: number
	/** `server_error`: 500, 502, 503 or 504 (default 500). */
	status?: number
	/** `server_error`: body as Instagram's HTML error page or a JSON fail body (default: html for 502-504). */
	format?: 'html' | 'json'
	/** `wrong_shape`: the 200 answer's JSON text (default `{"status":"ok"}`). */
	body?: string
}

/** A rule as the controller holds it, with how often it may still fire. */
export interface ActiveFault extends FaultRule {
	/** Hits left; null when unlimited. */
	remaining: number | null
	/** How many requests it hit so far. */
	hits: number
}

/** Controls the faults of one simulator (`simulator.faults`). */
export interface FaultController {
	/** Replaces all rules with `rule` (or the list). Throws a TypeError for an invalid rule. */
	set(rule: FaultRule | readonly FaultRule[]): void
	/** Adds a rule after the existing ones. */
	add(rule: FaultRule): void
	/** Removes every rule. */
	clear(): void
	/** The rules with their remaining counts. */
	list(): ActiveFault[]
}

const KINDS: readonly FaultKind[] = [
	'latency',
	'rate_limit',
	'server_error',
	'malformed',
	'challenge',
	'login',
	'hang',
	'repeat_cursor',
	'stale_page',
	'wrong_shape'
]

/** Checks a rule from untrusted input (the HTTP control endpoint) and returns it typed. */
export function validateFaultRule(input: unknown): FaultRule {
	if (typeof input !== 'object' || input === null) throw new TypeError('a fault rule must be an object')
	const rule = input as Record<string, unknown>
	if (!KINDS.includes(rule.kind as FaultKind)) throw new TypeError(`kind must be one of ${KINDS.join(', ')}`)
	const number = (name: string, min: number, max: number) => {
		const value = rule[name]
		if (value !== undefined && (typeof value !== 'number' || !(value >= min && value <= max))) {
			throw new TypeError(`${name} must be a number from ${min} to ${max}`)
		}
	}
	number('probability', 0, 1)
	number('times', 0, 1_000_000)
	number('latencyMs', 0, 600_000)
	number('retryAfter', 0, 86_400)
	number('status', 500, 599)
	if (rule.format !== undefined && rule.format !== 'html' && rule.format !== 'json')
		throw new TypeError('format must be html or json')
	if (rule.body !== undefined && (typeof rule.body !== 'string' || rule.body.length > 10_000))
		throw new TypeError('body must be a string of at most 10000 characters')
	if (rule.pathPattern !== undefined) {
		if (typeof rule.pathPattern !== 'string') throw new TypeError('pathPattern must be a string')
		new RegExp(rule.pathPattern)
	}
	return rule as unknown as FaultRule
}

/** The fault engine of one simulator. */
export class Faults implements FaultController {
	private rules: { rule: ActiveFault; pattern: RegExp | null }[] = []
	private readonly random: Random

	constructor(seed: number) {
		this.random = new Random(deriveSeed(seed, 'faults'))
	}

	set(rule: FaultRule | readonly FaultRule[]): void {
		const rules = (Array.isArray(rule) ? rule : [rule]) as FaultRule[]
		const compiled = rules.map((entry) => this.compile(entry))
		this.rules = compiled
	}

	add(rule: FaultRule): void {
		this.rules.push(this.compile(rule))
	}

	clear(): void {
		this.rules = []
	}

	list(): ActiveFault[] {
		return this.rules.map(({ rule }) => ({ ...rule }))
	}

	/** The rules that fire for a request, in order; each hit counts against `times`. */
	take(pathAndQuery: string): ActiveFault[] {
		const fired: ActiveFault[] = []
		for (const { rule, pattern } of this.rules) {
			if (rule.remaining === 0) continue
			if (pattern && !pattern.test(pathAndQuery)) continue
			if (rule.probability !== undefined && rule.probability < 1 && !(this.random.next() < rule.probability))
				continue
			if (rule.remaining !== null) rule.remaining--
			rule.hits++
			fired.push({ ...rule })
			// One terminal fault answers the request; only latency lets later rules apply too.
			if (rule.kind !== 'latency') break
		}
		return fired
	}

	private compile(input: FaultRule): { rule: ActiveFault; pattern: RegExp | null } {
		const rule = validateFaultRule(input)
		return {
			rule: { ...rule, remaining: rule.times ?? null, hits: 0 },
			pattern: rule.pathPattern ? new RegExp(rule.pathPattern) : null
		}
	}
}
