/**
 * Finding tags and their attributes in an HTML page in time linear in its length. The page is
 * whatever the origin answers (up to 16 MiB, `response-body.ts`), and the regexes this replaces
 * (`<meta[^>]+(?:property|name)=...[^>]*content=...`, `\{.+?\});\s*<\/script>`) backtrack
 * quadratically over a forged one: 80 kB of `<meta ` held the event loop for 1.7 s, so a
 * megabyte would hold every request of the server for minutes. Here every search is an
 * `indexOf` that moves forward, and an attribute list is read character by character.
 */

/** `text` with A-Z lower-cased and nothing else changed, so its indexes are those of `text`. */
export function asciiLowerCase(text: string): string {
	return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

const isSpace = (character: string | undefined) =>
	character === ' ' || character === '\n' || character === '\t' || character === '\r' || character === '\f'

/**
 * The attributes of one opening tag such as `<meta property="og:image" content='x'>`: names
 * lower-cased, values as written (entities not decoded), the first of a repeated name kept.
 */
export function attributesOf(tag: string): Map<string, string> {
	const attributes = new Map<string, string>()
	const length = tag.length
	let position = 1
	while (position < length && !isSpace(tag[position]) && tag[position] !== '>') position++
	while (position < length) {
		while (position < length && (isSpace(tag[position]) || tag[position] === '/')) position++
		const nameStart = position
		while (
			position < length &&
			!isSpace(tag[position]) &&
			tag[position] !== '=' &&
			tag[position] !== '>' &&
			tag[position] !== '/'
		)
			position++
		const name = asciiLowerCase(tag.slice(nameStart, position))
		while (position < length && isSpace(tag[position])) position++
		if (tag[position] !== '=') {
			// An attribute without a value, or the end of the tag: move on by one at least.
			if (position === nameStart) position++
			continue
		}
		position++
		while (position < length && isSpace(tag[position])) position++
		const quote = tag[position]
		let value: string
		if (quote === '"' || quote === "'") {
			const close = tag.indexOf(quote, position + 1)
			const end = close === -1 ? length : close
			value = tag.slice(position + 1, end)
			position = end + 1
		} else {
			const valueStart = position
			while (position < length && !isSpace(tag[position]) && tag[position] !== '>') position++
			value = tag.slice(valueStart, position)
		}
		if (name !== '' && !attributes.has(name)) attributes.set(name, value)
	}
	return attributes
}

/** Whether `lower` has a tag named `name` at `start` (`<name` followed by a space, `/` or `>`). */
function tagStartsAt(lower: string, start: number, name: string): boolean {
	const after = lower[start + name.length + 1]
	return after === undefined || after === '>' || after === '/' || isSpace(after)
}

/** The attributes of every complete `<name ...>` opening tag of `html`, in order. */
export function openingTags(html: string, name: string): Map<string, string>[] {
	const lower = asciiLowerCase(html)
	const tags: Map<string, string>[] = []
	for (let from = 0; ; ) {
		const start = lower.indexOf(`<${name}`, from)
		if (start === -1) return tags
		const end = lower.indexOf('>', start)
		if (end === -1) return tags
		if (tagStartsAt(lower, start, name)) tags.push(attributesOf(html.slice(start, end + 1)))
		from = end + 1
	}
}

/** Every complete `<script ...>...</script>` of `html`: its attributes and its text, in order. */
export function scriptBlocks(html: string): { attributes: Map<string, string>; content: string }[] {
	const lower = asciiLowerCase(html)
	const blocks: { attributes: Map<string, string>; content: string }[] = []
	for (let from = 0; ; ) {
		const start = lower.indexOf('<script', from)
		if (start === -1) return blocks
		const open = lower.indexOf('>', start)
		if (open === -1) return blocks
		const close = lower.indexOf('</script>', open)
		if (close === -1) return blocks
		if (tagStartsAt(lower, start, 'script'))
			blocks.push({
				attributes: attributesOf(html.slice(start, open + 1)),
				content: html.slice(open + 1, close)
			})
		from = close + '</script>'.length
	}
}
