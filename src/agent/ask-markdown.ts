/**
 * Markdown for the terminal (marked + marked-terminal). Loaded on demand by `printResponse`: the
 * renderer brings all of highlight.js, about 150 ms of start-up and 30 MB of memory that the
 * servers and piped output never use.
 */
import { Marked } from 'marked'
import { markedTerminal } from 'marked-terminal'

/**
 * Renders Markdown for the terminal: the terminal's width, at most 100 columns. Some pseudo
 * terminals (script, CI runners) report 0 columns; reflowing to that would print nothing.
 */
export function renderMarkdown(markdown: string, columns = process.stdout.columns): string {
	const width = columns && columns >= 20 ? columns : 80
	const marked = new Marked()
	// marked-terminal's typings lag behind marked's extension type; the runtime shape matches.
	marked.use(
		markedTerminal({
			width: Math.min(width, 100),
			reflowText: true,
			emoji: false,
			showSectionPrefix: false
		}) as never
	)
	const rendered = marked.parse(markdown, { async: false }) as string
	return rendered.replace(/\n+$/, '')
}
