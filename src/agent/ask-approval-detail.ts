/**
 * What a terminal approval shows under its title (ask-approver.ts). Code and files: up to 40 lines,
 * each cut at 400 characters. A write on the account: the whole call, every argument whole (a
 * message or a comment is read by another person, and what the person approves is what is sent),
 * wrapped to the terminal beside the gutter. In a write's text each run of more than
 * `blankRunShown` blank characters is written as `⟨400 spaces⟩`, so padding cannot push the rest
 * out of sight; a literal `⟨` or `⟩` is written `\u27e8`, `\u27e9`, so the text cannot fake one.
 * A write longer than `writeShownLimit` characters, so shown, is not asked: it is denied.
 */
import { revealInvisible, terminalText, unicodeEscape } from '../cli-error'
import type { ApprovalRequest } from './permissions'

/** Longest run of blank characters a write's text shows as it is. */
export const blankRunShown = 3

/**
 * Longest write call shown for approval, in characters as shown. Instagram takes far shorter
 * messages and comments; a longer call is denied rather than asked, as nobody reviews pages of it.
 */
export const writeShownLimit = 4000

/** Each line of an approval's detail starts with this gutter. */
const gutter = '  │ '

/** White space, and characters that draw as blank (Braille blank, Hangul fillers). */
const blankRun = new RegExp(`[\\s\\u2800\\u3164\\uffa0\\u115f\\u1160]{${blankRunShown + 1},}`, 'g')

/** `⟨400 spaces⟩`, `⟨12 line breaks⟩`, `⟨5 tabs⟩` or, for a mix or other blanks, `⟨9 blank characters⟩`. */
function blankMarker(run: string): string {
	const kind = /^ +$/.test(run)
		? 'spaces'
		: /^\n+$/.test(run)
			? 'line breaks'
			: /^\t+$/.test(run)
				? 'tabs'
				: 'blank characters'
	return `⟨${run.length} ${kind}⟩`
}

/** A string as JSON writes it, with its long blank runs as markers. */
function showString(text: string): string {
	let shown = ''
	let from = 0
	const quoted = (part: string) => JSON.stringify(part).slice(1, -1).replace(/[⟨⟩]/g, unicodeEscape)
	for (const run of text.matchAll(blankRun)) {
		shown += quoted(text.slice(from, run.index)) + blankMarker(run[0])
		from = run.index + run[0].length
	}
	return `"${shown}${quoted(text.slice(from))}"`
}

/** JSON data as `JSON.stringify` writes it, strings through `showString`. */
function showJson(value: unknown): string {
	if (typeof value === 'string') return showString(value)
	if (Array.isArray(value)) return `[${value.map(showJson).join(',')}]`
	if (value !== null && typeof value === 'object')
		return `{${Object.entries(value)
			.map(([key, item]) => `${showString(key)}:${showJson(item)}`)
			.join(',')}}`
	return JSON.stringify(value)
}

/**
 * A write call as the terminal shows it: `ig.direct.sendText("1000000002", "Hi⟨400 spaces⟩...")`.
 * Without long blank runs or `⟨⟩` it reads as the request's detail (the call in JSON).
 */
export function showWriteCall(method: string, args: readonly unknown[]): string {
	const shown = args.map((arg) => {
		// As JSON sends it (toJSON applied, functions left out); the request's detail does the same.
		const json = JSON.stringify(arg)
		return json === undefined ? 'undefined' : showJson(JSON.parse(json))
	})
	return `ig.${method}(${shown.join(', ')})`
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/** `text` cut into lines of at most `width` columns; a blank-run marker is never cut. */
function wrap(text: string, width: number): string[] {
	const lines: string[] = []
	let line = ''
	let used = 0
	for (const part of text.split(/(⟨[^⟨⟩]*⟩)/)) {
		const pieces = part.startsWith('⟨')
			? [part]
			: Array.from(graphemes.segment(part), (piece) => piece.segment)
		for (const piece of pieces) {
			const size = Bun.stringWidth(piece)
			if (used + size > width && line) {
				lines.push(line)
				line = ''
				used = 0
			}
			line += piece
			used += size
		}
	}
	lines.push(line)
	return lines
}

/** What an approval shows: its detail, and for a write too long to show, why it is denied unasked. */
export interface ApprovalDetail {
	detail: string
	/** Set when the request is denied without asking (a write longer than `writeShownLimit`). */
	refusal?: string
}

/** The detail of `request` for a terminal `columns` wide, safe to print (see `terminalText`). */
export function approvalDetail(request: ApprovalRequest, columns = 80): ApprovalDetail {
	// What is approved is shown as it is: no character may make it read otherwise (see revealInvisible).
	const safe = (text: string) => terminalText(revealInvisible(text))
	if (request.kind !== 'write_call') {
		const lines = safe(request.detail).split('\n')
		const shown = lines
			.slice(0, 40)
			.map(
				(line) =>
					`${gutter}${line.length > 400 ? `${line.slice(0, 400)}… (${line.length} characters)` : line}`
			)
		if (lines.length > 40) shown.push(`${gutter}… ${lines.length - 40} more lines`)
		return { detail: shown.join('\n') }
	}
	const call = safe(
		Array.isArray(request.args) ? showWriteCall(request.method ?? 'write', request.args) : request.detail
	)
	const length = Array.from(call).length
	if (length > writeShownLimit) {
		return {
			detail: `${gutter}ig.${safe(request.method ?? 'write')}(…): ${length.toLocaleString('en-US')} characters`,
			refusal:
				`Denied without asking: longer than the ${writeShownLimit.toLocaleString('en-US')} characters ` +
				'an approval shows whole, and a write is sent only as the person has read it.'
		}
	}
	const width = Math.max(20, (columns || 80) - gutter.length)
	return {
		detail: call
			.split('\n')
			.flatMap((line) => wrap(line, width))
			.map((line) => `${gutter}${line}`)
			.join('\n')
	}
}
