import { describe, expect, test } from 'bun:test'
import { cac } from 'cac'
import { attachOptionValues, typedOptionValues } from '../../src/server/cli-argv'

/** Parses `words` as `smkit collect` would, after the fixes. */
function parse(words: string[]) {
	const cli = cac('smkit')
	cli.command('collect <kind> <target>', '').option('--demo', '').option('--limit <n>', '')
	cli.command('ask [...question]', '').option('-i, --interactive', '').option('--demo', '')
	const options = [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]
	const parsed = cli.parse(['bun', 'smkit', ...attachOptionValues(words, options)], { run: false })
	return { args: parsed.args, options: parsed.options }
}

describe('attachOptionValues', () => {
	test('a number after a switch stays the word typed (a 19-digit pk keeps its digits)', () => {
		const { args, options } = parse(['collect', 'likers', '--demo', '3456789012345678901'])
		expect(args).toEqual(['likers', '3456789012345678901'])
		expect(options.demo).toBe(true)
	})

	test('an empty or blank word after a switch stays a word and leaves the switch on', () => {
		expect(parse(['ask', '--demo', '']).args).toEqual([''])
		expect(parse(['ask', '--demo', '']).options.demo).toBe(true)
		expect(parse(['ask', '-i', '  ']).args).toEqual(['  '])
		expect(parse(['ask', '-i', '  ']).options.interactive).toBe(true)
	})

	test('a lone - and a negative number reach the option that takes them', () => {
		expect(parse(['collect', 'followers', 'x', '--limit', '-5']).options.limit).toBe(-5)
		expect(parse(['collect', 'followers', 'x', '--limit', '-']).options.limit).toBe('-')
	})

	test('words after -- are left alone', () => {
		expect(parse(['ask', '--', '--demo', 'x']).options['--']).toEqual(['--demo', 'x'])
	})
})

describe('typedOptionValues', () => {
	const cli = cac('smkit')
	cli
		.command('collect <kind> <target>', '')
		.option('--demo', '')
		.option('--out <file>', '')
		.option('--api-key <key>', '')
	const options = [...cli.globalCommand.options, ...(cli.commands[0]?.options ?? [])]
	const typed = (words: string[]) => typedOptionValues(words, options)

	test('values keep their digits, leading zeros and spelling', () => {
		const { values, repeated } = typed([
			'collect',
			'likers',
			'1',
			'--out',
			'007',
			'--api-key=0123456789012345678901'
		])
		expect(values).toEqual({ out: '007', apiKey: '0123456789012345678901' })
		expect(repeated).toEqual([])
	})

	test('an option given twice is named; a switch or a missing value adds no value', () => {
		expect(typed(['collect', '--out', 'a', '--out=b']).repeated).toEqual(['--out'])
		expect(typed(['collect', '--demo', '--demo']).repeated).toEqual(['--demo'])
		expect(typed(['collect', '--out']).values).toEqual({})
		expect(typed(['collect', '--out', '--demo']).values).toEqual({})
		expect(typed(['collect', '--', '--out', '7']).values).toEqual({})
	})
})
