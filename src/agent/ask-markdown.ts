/**
 * Markdown for the terminal (marked + marked-terminal). Loaded on demand by `printResponse`: the
 * renderer brings all of highlight.js, about 150 ms of start-up and 30 MB of memory that the
 * servers and piped output never use.
 */
import { styleText } from 'node:util'
import { Marked, type Token, type Tokens } from 'marked'
import { markedTerminal } from 'marked-terminal'
import { terminalText } from '../cli-error'

type Style = Parameters<typeof styleText>[0]

/** One inline style as a function; plain text when colours are off. */
function styler(colour: boolean) {
	return (style: Style) => (text: string) =>
		colour ? styleText(style, text, { validateStream: false }) : text
}

/**
 * Escape sequences (CSI, such as colours, and OSC, such as hyperlinks). Every one in a rendering
 * comes from the renderer: the answer's own escape characters arrive as text (`terminalText`).
 */
const escapeSequences = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))/g

/**
 * Deepest nesting of lists and block quotes (a list in a list, a quote in a list, ...) that is
 * rendered. marked-terminal wraps every list item in chalk's reset, which repeats each reset code
 * already inside it: the rendering doubles with each level (a 1 KB list 30 levels deep would take
 * gigabytes). A deeper answer is printed as its plain text.
 */
export const renderedNestingLimit = 6

/**
 * Longest rendering kept, for an answer of `length` characters: a second guard, should anything
 * else in the renderer grow out of proportion. A longer rendering is dropped for the plain text.
 * A table or highlighted code is a few times its Markdown; a list six levels deep, with the resets
 * doubled, up to about 60 times.
 */
export function renderedLimit(length: number): number {
	return 64 * 1024 + 128 * length
}

/**
 * How deeply lists and block quotes nest in `tokens`, one walk over them; the count stops at the
 * first level beyond `limit`.
 */
export function nestingDepth(tokens: readonly Token[], limit = renderedNestingLimit): number {
	let deepest = 0
	const pending: [Token, number][] = tokens.map((token) => [token, 0])
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [token, outer] = next
		const depth = token.type === 'list' || token.type === 'blockquote' ? outer + 1 : outer
		if (depth > limit) return depth
		deepest = Math.max(deepest, depth)
		const children = [
			...('items' in token ? token.items : []),
			...('tokens' in token ? (token.tokens ?? []) : [])
		]
		for (const child of children) pending.push([child, depth])
	}
	return deepest
}

/** The widest line of a rendering, in terminal columns (escape sequences take none). */
function widestLine(rendered: string): number {
	return Math.max(
		0,
		...rendered.split('\n').map((line) => Bun.stringWidth(line.replace(escapeSequences, '')))
	)
}

/** A paragraph token of `inline` tokens (rendered, and reflowed, as any paragraph is). */
function paragraph(inline: Token[]): Tokens.Paragraph {
	return { type: 'paragraph', raw: '', text: '', tokens: inline }
}

/**
 * A table too wide for the terminal, as one paragraph per row with a "column: value" line for each
 * cell: the lines then wrap at the terminal's width as a paragraph's do, where a grid wider than the
 * terminal would be broken up by the terminal itself, each row spilling over the next.
 */
export function tableAsRecords(token: Tokens.Table): Tokens.Paragraph[] {
	return token.rows.map((row) =>
		paragraph(
			row.flatMap((cell, index): Token[] => {
				const header = token.header[index]
				const name: Token[] = header?.tokens.length
					? header.tokens
					: [{ type: 'text', raw: '', text: `Column ${index + 1}` }]
				return [
					...(index > 0 ? [{ type: 'br', raw: '' } as Tokens.Br] : []),
					{ type: 'strong', raw: '', text: '', tokens: name },
					{ type: 'text', raw: ': ', text: ': ' },
					...cell.tokens
				]
			})
		)
	)
}

/** The answer as it came, control characters shown as text: for what the renderer cannot take. */
function plainText(markdown: string): string {
	return terminalText(markdown).replace(/\n+$/, '')
}

/**
 * Renders Markdown for the terminal: the terminal's width, at most 100 columns. Some pseudo
 * terminals (script, CI runners) report 0 columns; reflowing to that would print nothing.
 * `colour` false (or NO_COLOR set to anything but '') keeps the layout and drops every escape code,
 * hyperlinks included (a link is then `text (url)`). A table wider than that width is printed as
 * `tableAsRecords`. An answer nested more deeply than `renderedNestingLimit`, or whose rendering
 * would pass `renderedLimit`, is printed as plain text.
 */
export function renderMarkdown(
	markdown: string,
	columns = process.stdout.columns,
	colour = !process.env.NO_COLOR
): string {
	const width = Math.min(columns && columns >= 20 ? columns : 80, 100)
	const style = styler(colour)
	const marked = new Marked()
	// marked-terminal's typings lag behind marked's extension type; the runtime shape matches.
	const terminal = markedTerminal({
		width,
		reflowText: true,
		emoji: false,
		showSectionPrefix: false,
		// The styles are given here rather than left to chalk's own detection, so that they follow
		// the caller's decision (a terminal, NO_COLOR) and never differ from the rest of `ask`.
		strong: style('bold'),
		em: style('italic'),
		codespan: style('yellow'),
		del: style(['dim', 'strikethrough']),
		link: style('blue'),
		href: style(['blue', 'underline']),
		heading: style(['green', 'bold']),
		firstHeading: style(['magenta', 'bold', 'underline']),
		// Gray only: an italic quote would lose its italics after the first inline style closes.
		blockquote: style('gray')
	}) as { renderer: { table(this: unknown, token: Tokens.Table): string } }
	marked.use(terminal as never)
	marked.use({
		renderer: {
			// The grid when it fits the width (cli-table3 never wraps a cell), otherwise one record per row.
			table(token: Tokens.Table) {
				const grid = terminal.renderer.table.call(this, token)
				return widestLine(grid) <= width ? grid : this.parser.parse(tableAsRecords(token))
			},
			// A tight list item's text arrives as one text token whose inline tokens (bold, code,
			// links) marked-terminal prints raw; render them like a paragraph's.
			text(token: Tokens.Text | Tokens.Escape) {
				return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false
			},
			// Without colour a link is never a terminal hyperlink (an escape sequence): text and address.
			link(token: Tokens.Link) {
				if (colour) return false
				const text = this.parser.parseInline(token.tokens)
				return text && text !== token.href ? `${text} (${token.href})` : token.href
			}
		}
	})
	// Lexed apart from rendering, so the nesting is known before any of the renderer's work is done.
	const tokens = marked.lexer(markdown)
	if (nestingDepth(tokens) > renderedNestingLimit) return plainText(markdown)
	const rendered = marked.parser(tokens).replace(/\n+$/, '')
	if (rendered.length > renderedLimit(markdown.length)) return plainText(markdown)
	// Paragraphs and list items (chalk's reset), code blocks and tables are styled by libraries that
	// follow their own terminal detection, which ignores NO_COLOR: without colour those codes go too.
	return colour ? rendered : rendered.replace(escapeSequences, '')
}
