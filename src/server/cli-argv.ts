/**
 * Fixes to what cac's parser (mri) makes of a command line. mri takes the word after any option
 * for that option's value: a lone `-` or a negative number after an option that takes a value, and
 * any word after a switch, came out wrong (`attachOptionValues`, before parsing); and it turns
 * values that look like numbers into numbers (`typedOptionValues`, after parsing).
 */

/** An option as cac registers it: `--limit <n>`, `-i, --interactive`, `--demo`. */
interface OptionShape {
	rawName: string
	required?: boolean
	isBoolean?: boolean
}

/** The words a person types for an option: `-i` and `--interactive` for `-i, --interactive`. */
function wordsOf(option: OptionShape): string[] {
	return option.rawName.split(',').map((name) => name.trim().split(/\s/)[0])
}

/**
 * `--cookies -` (standard input) read as "value is missing" and `--limit -5` as "Unknown option
 * `-5`": joined as `--option=value` they reach the option, whose own check then answers.
 *
 * A word after a switch (`--demo 3456789012345678901`, `--demo ""`) went to the positional
 * arguments as a number when it looked like one (a 19-digit media pk lost its last digits, a
 * blank question became 0), and an empty word turned the switch off: `--demo=true` keeps the
 * switch on and leaves the word as typed.
 */
export function attachOptionValues(argv: string[], options: OptionShape[]): string[] {
	const takesValue = new Set(options.filter((option) => option.required).flatMap(wordsOf))
	const switches = new Set(options.filter((option) => option.isBoolean).flatMap(wordsOf))
	const words: string[] = []
	let optionsEnded = false
	for (const [index, word] of argv.entries()) {
		const previous = words.at(-1)
		const next = argv[index + 1]
		if (optionsEnded) words.push(word)
		else if (previous && takesValue.has(previous) && (word === '-' || /^-\d/.test(word)))
			words[words.length - 1] = `${previous}=${word}`
		else if (switches.has(word) && next !== undefined && !next.startsWith('-')) words.push(`${word}=true`)
		else words.push(word)
		if (word === '--') optionsEnded = true
	}
	return words
}

/** An option of the matched command, as cac registers it (`names`: camelCase keys, aliases included). */
interface MatchedOption extends OptionShape {
	names: string[]
}

/**
 * The values of options that take one, as typed. mri, cac's parser, turns a value that looks like a
 * number into one (`--out 007` wrote to the file `7`, an all-digit `--token` or `--api-key` lost
 * digits) and makes an option given twice an array (`--db a.db --db b.db` opened `a.db,b.db`).
 * Returns each option's typed text under every key cac uses for it, and the options given more
 * than once. A value-taking option given without a value is left out (cac says "value is missing").
 */
export function typedOptionValues(
	argv: string[],
	options: MatchedOption[]
): { values: Record<string, string>; repeated: string[] } {
	const byWord = new Map<string, MatchedOption>()
	for (const option of options) for (const word of wordsOf(option)) byWord.set(word, option)
	const values: Record<string, string> = {}
	const seen = new Map<MatchedOption, number>()
	const repeated: string[] = []
	for (let index = 0; index < argv.length; index++) {
		const word = argv[index] as string
		if (word === '--') break
		if (!word.startsWith('-') || word === '-') continue
		const equals = word.indexOf('=')
		const option = byWord.get(equals < 0 ? word : word.slice(0, equals))
		if (!option) continue
		const count = (seen.get(option) ?? 0) + 1
		seen.set(option, count)
		if (count === 2) repeated.push(wordsOf(option).at(-1) as string)
		if (!option.required) continue
		// mri's rule: the text after `=`, else the next word unless it starts with `-`.
		let value = equals < 0 ? '' : word.slice(equals + 1)
		if (value === '') {
			const next = argv[index + 1]
			if (next === undefined || next.startsWith('-')) continue
			value = next
			index++
		}
		for (const name of option.names) values[name] = value
	}
	return { values, repeated }
}
