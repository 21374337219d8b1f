/**
 * Markdown for the terminal (marked + marked-terminal). Loaded on demand by `printResponse`: the
 * renderer brings all of highlight.js, about 150 ms of start-up and 30 MB of memory that the
 * servers and piped output never use.
 */
import { styleText } from 'node:util'
import { Marked, type Tokens } from 'marked'
import { markedTerminal } from 'marked-terminal'

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
 * Renders Markdown for the terminal: the terminal's width, at most 100 columns. Some pseudo
 * terminals (script, CI runners) report 0 columns; reflowing to that would print nothing.
 * `colour` false (or NO_COLOR set to anything but '') keeps the layout and drops every escape code,
 * hyperlinks included (a link is then `text (url)`).
 */
export function renderMarkdown(
	markdown: string,
	columns = process.stdout.columns,
	colour = !process.env.NO_COLOR
): string {
	const width = columns && columns >= 20 ? columns : 80
	const style = styler(colour)
	const marked = new Marked()
	// marked-terminal's typings lag behind marked's extension type; the runtime shape matches.
	marked.use(
		markedTerminal({
			width: Math.min(width, 100),
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
		}) as never
	)
	marked.use({
		renderer: {
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
	const rendered = (marked.parse(markdown, { async: false }) as string).replace(/\n+$/, '')
	// Paragraphs and list items (chalk's reset), code blocks and tables are styled by libraries that
	// follow their own terminal detection, which ignores NO_COLOR: without colour those codes go too.
	return colour ? rendered : rendered.replace(escapeSequences, '')
}
