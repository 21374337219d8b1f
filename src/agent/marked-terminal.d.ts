/** Types for marked-terminal 7 (it ships none): only the part `ask-terminal.ts` uses. */
declare module 'marked-terminal' {
	/** Options of the terminal renderer (subset). */
	export interface TerminalRendererOptions {
		width?: number
		reflowText?: boolean
		emoji?: boolean
		showSectionPrefix?: boolean
		tab?: number
	}
	/** A marked extension that renders Markdown as ANSI text. */
	export function markedTerminal(
		options?: TerminalRendererOptions,
		highlightOptions?: Record<string, unknown>
	): unknown
}
