/** Types for marked-terminal 7 (it ships none): only the part `ask-markdown.ts` uses. */
declare module 'marked-terminal' {
	type Style = (text: string) => string
	/** Options of the terminal renderer (subset). */
	export interface TerminalRendererOptions {
		width?: number
		reflowText?: boolean
		emoji?: boolean
		showSectionPrefix?: boolean
		tab?: number
		strong?: Style
		em?: Style
		codespan?: Style
		del?: Style
		link?: Style
		href?: Style
		heading?: Style
		firstHeading?: Style
		blockquote?: Style
	}
	/** A marked extension that renders Markdown as ANSI text. */
	export function markedTerminal(
		options?: TerminalRendererOptions,
		highlightOptions?: Record<string, unknown>
	): unknown
}
