/**
 * Fixes to the words of a command line before cac's parser (mri) reads them. mri takes the word
 * after any option for that option's value: a lone `-` or a negative number after an option that
 * takes a value, and any word after a switch, came out wrong.
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
