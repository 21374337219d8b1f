/**
 * The smkit command line: cac wiring only. Each command hands its raw options to a `run*`
 * function that validates them, so nothing here knows about servers, agents or the simulator.
 * A new command: `addOptions(cli.command(name, summary), itsOptionSchemas).action(runIt)`.
 */
import { cac } from 'cac'
import packageJson from '../package.json'
import { askOptions } from './agent/ask-options'
import { agentWebOptions, runAgentWeb } from './agentweb/serve'
import {
	cacWording,
	didYouMean,
	exitCodeOf,
	formatCliError,
	jsonFailure,
	jsonText,
	UsageError
} from './cli-error'
import { jobsOptions, runJobsCommand } from './jobs/cli'
import { collectOptions, runCollect } from './jobs/collect'
import { mcpOptions } from './mcp/options'
import { playgroundOptions, runPlayground } from './playground/serve'
import { attachOptionValues, typedOptionValues } from './server/cli-argv'
import { addOptions } from './server/options'
import { loginOptions, logoutOptions, runLogin, runLogout } from './session/login'
import { runSimulator, simulatorOptions } from './simulator/serve'
import { analyticsOptions, runAnalyticsCommand, runCompareCommand } from './watch/analytics-cli'
import { runWatchCommand, watchOptions } from './watch/cli'

/**
 * Files and folders smkit makes are its user's alone (mode 0600, folders 0700): the store, saved
 * results, exports, downloads and the agent's files hold an account's data (its messages among
 * them), which other users of a shared machine would otherwise read. `chmod` shares one.
 */
process.umask(process.umask() | 0o077)

const cli = cac('smkit')

/**
 * A command whose module is loaded when it runs: `smkit ask` (terminal Markdown and highlighting)
 * and `smkit mcp` (the MCP SDK and its schema libraries) weigh megabytes that a server running
 * another command would otherwise keep in its heap for nothing.
 */
const runLater =
	<Arguments extends unknown[]>(load: () => Promise<(...args: Arguments) => Promise<void>>) =>
	async (...args: Arguments) =>
		(await load())(...args)

// Each command's options are schemas next to its `run*` function (`addOptions` registers their
// flags, help and defaults); the `run*` function validates cac's values against the same schemas.
addOptions(
	cli.command('playground', 'Start the playground: JSON endpoints and browser UI (port 8877)'),
	playgroundOptions
).action(runPlayground)

addOptions(cli.command('agent-web', 'Start the AI chat server (port 8899)'), agentWebOptions).action(
	runAgentWeb
)

addOptions(
	cli.command('ask [...question]', 'Ask the agent: one-shot, -i interactive, or --parallel tasks'),
	askOptions
)
	.example('  $ smkit ask "Which of luna.explorer\'s last 12 posts has the most likes?" --demo')
	.example('  $ smkit ask -i --demo')
	.example('  $ smkit ask --parallel "followers of luna.explorer" "top posts for #sunset" --demo')
	.action(runLater(async () => (await import('./agent/ask')).runAsk))

addOptions(
	cli.command(
		'collect <kind> <target>',
		'Collect a whole list into the store: followers, following, posts, tag, comments, likers or media'
	),
	collectOptions
)
	.example('  $ smkit collect followers mega.travel --out followers.jsonl --demo   # rerun to continue')
	.example("  $ smkit collect tag '#sunset' --limit 500 --format csv --out sunset.csv --demo")
	.example('  $ smkit collect likers https://www.instagram.com/p/DVUVYxwAOOz/ --demo')
	.action(runCollect)

addOptions(
	cli.command(
		'jobs [action] [...args]',
		'The jobs on the store, whoever started them: list, show ID, export ID, delete ID'
	),
	jobsOptions
)
	.usage('jobs [list] | show ID | export ID | delete ID  [options]')
	.example('  $ smkit jobs                                   # every job: collect, playground, MCP, watches')
	.example('  $ smkit jobs export 3 --format csv --out followers.csv')
	.example('  $ smkit jobs delete 3')
	.action(runJobsCommand)

addOptions(
	cli.command(
		'login',
		'Connect an Instagram account from browser cookies (cookies.txt, JSON or Cookie header)'
	),
	loginOptions
)
	.example('  $ smkit login --cookies cookies.txt')
	.example('  $ smkit login --cookies -        # paste a Cookie header copied from the browser, then Ctrl-D')
	.action(runLogin)

addOptions(
	cli.command('logout', 'Remove the Instagram session from the environment file'),
	logoutOptions
).action(runLogout)

addOptions(
	cli.command('mcp', 'Serve the Instagram tools to an AI assistant over MCP (stdio, or --http)'),
	mcpOptions
).action(runLater(async () => (await import('./mcp/serve')).runMcp))

addOptions(
	cli.command(
		'watch [action] [...args]',
		'Watch accounts and hashtags over time: add TARGET, list, show ID, run [ID...], diff ID, remove ID'
	),
	watchOptions
)
	.usage('watch add USERNAME|#TAG | list | show ID | run [ID...] | diff ID | remove ID  [options]')
	.example('  $ smkit watch add luna.explorer --every 1d --followers')
	.example("  $ smkit watch add '#sunset' --every 6h")
	.example('  $ smkit watch run              # every due watch once (for cron); run 3: watch 3 now')
	.example('  $ smkit watch show 1           # every snapshot of watch 1: the counts over time')
	.example('  $ smkit watch diff 1 --json    # the last two snapshots of watch 1')
	.action(runWatchCommand)

addOptions(cli.command('analytics <username>', "A profile's figures from its recent posts"), analyticsOptions)
	.example('  $ smkit analytics luna.explorer --posts 60 --demo')
	.action(runAnalyticsCommand)

addOptions(
	cli.command('compare <...usernames>', 'Compare 2 to 5 profiles on the same figures'),
	analyticsOptions
)
	.example('  $ smkit compare luna.explorer mega.travel --demo')
	.action(runCompareCommand)

addOptions(
	cli.command('simulator', 'Serve the simulated Instagram on its own (development aid)'),
	simulatorOptions
).action(runSimulator)

// cac prints a command's usage and options but not what it does: its summary goes under the usage.
cli.help((sections) => {
	const command = cli.matchedCommand
	if (command?.description) sections.splice(2, 0, { body: `  ${command.description}` })
	return sections
})
cli.version(packageJson.version)
// cac names the runtime after process.version, which under Bun is the Node.js version it matches
// (`bun-v26.3.0` for Bun 1.4.5); bug reports need Bun's own.
cli.outputVersion = () =>
	console.info(`smkit/${packageJson.version} ${process.platform}-${process.arch} bun-${Bun.version}`)

/**
 * `smkit help` and `smkit help COMMAND`, as people type them: the same as `--help`. `smkit help
 * WORD` for a word that is no command is that word as a command: its "unknown command" (with a
 * suggestion) and exit code 2, not the general help and 0 as if it had been answered.
 */
function helpWord(argv: string[]): string[] {
	const [runtime, script, first, ...rest] = argv
	if (first !== 'help') return argv
	const [topic] = rest
	const known =
		topic === undefined ||
		topic.startsWith('-') ||
		topic === 'help' ||
		cli.commands.some((command) => command.isMatched(topic))
	return known ? [runtime, script, ...rest, '--help'] : [runtime, script, ...rest]
}

/**
 * cac names an unknown option in camelCase (`--apiKey` for `--api-key`): the error shows it as it
 * was typed instead.
 */
function asTyped(message: string): string {
	return message.replace(/Unknown option `(--?[\w-]+)`/, (whole, name: string) => {
		const typed = process.argv
			.slice(2)
			.map((word) => word.split('=')[0])
			.find((word) => {
				const [, dashes = '', rest = ''] = /^(-+)(.*)$/.exec(word) ?? []
				return dashes + rest.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase()) === name
			})
		if (!typed) return whole
		const command = cli.matchedCommand ?? cli.globalCommand
		const flags = [...command.options, ...cli.globalCommand.options].flatMap(
			(option) => option.rawName.match(/--[\w-]+/g) ?? []
		)
		return `Unknown option \`${typed}\`${didYouMean(typed, flags)}`
	})
}

/**
 * A reader that stops early (`| head`, a pager quit before the end) closes standard output, and the
 * writes after that fail with EPIPE: thrown by the write, or emitted on the stream, where nothing
 * listening made Bun print a stack and exit 1. The reader chose to stop, and nothing more can be
 * shown: the command ends as it would have (collect also pauses its job, with its own listener).
 */
const readerGone = (error: unknown) => (error as { code?: unknown } | null)?.code === 'EPIPE'
process.stdout.on('error', (error) => {
	if (!readerGone(error)) throw error
})

/** A failed command on standard error (and standard output with --json), with its exit code. */
function reportFailure(error: unknown): void {
	// cac's own errors (an unknown option, a missing argument or option value, an extra argument)
	// are usage mistakes: exit 2, with a pointer to the command's help.
	const usage = error instanceof Error && error.name === 'CACError'
	if (usage) error.message = cacWording(asTyped(error.message))
	const command = cli.matchedCommand?.name
	console.error(formatCliError(error))
	if (usage || (error instanceof UsageError && error.pointsToHelp))
		console.error(`Run 'smkit ${command ? `${command} ` : ''}--help' for the usage.`)
	process.exitCode = usage ? 2 : exitCodeOf(error)
	// A command given --json keeps standard output JSON when it fails, as when it succeeds.
	const takesJson = cli.matchedCommand?.options.some((option) => option.name === 'json')
	if (takesJson && cli.options.json === true) process.stdout.write(`${jsonText(jsonFailure(error, usage))}\n`)
}

try {
	const options = [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]
	const words = attachOptionValues(helpWord(process.argv), options)
	cli.parse(words, { run: false })
	if (cli.options.help || cli.options.version) {
		// cac has printed what was asked for, except the version after a command: printed here, so
		// `smkit watch run --version` answers instead of exiting 0 having done nothing.
		if (cli.options.version && !cli.options.help && cli.matchedCommand) cli.outputVersion()
	} else if (!cli.matchedCommand) {
		const [unknown] = cli.args
		const flag = process.argv.slice(2).find((word) => word.startsWith('-'))
		// A typo gets the command it is close to, as git does; any other word the whole help.
		const suggestion =
			unknown === undefined
				? ''
				: didYouMean(
						String(unknown),
						cli.commands.map((command) => command.name)
					)
		if (suggestion !== '')
			console.error(`smkit: unknown command '${unknown}'${suggestion}\nRun 'smkit --help' for the commands.`)
		else {
			if (unknown !== undefined) console.error(`smkit: unknown command '${unknown}'\n`)
			else if (flag !== undefined)
				console.error(`smkit: unknown option '${flag}': options go after a command\n`)
			cli.outputHelp()
		}
		process.exitCode = 2
	} else {
		const typed = typedOptionValues(words.slice(2), [
			...cli.globalCommand.options,
			...cli.matchedCommand.options
		])
		if (typed.repeated.length > 0)
			throw new UsageError(`${typed.repeated.join(', ')} given more than once: give each option once`)
		Object.assign(cli.options, typed.values)
		await cli.runMatchedCommand()
	}
} catch (error) {
	// A write the reader's going away made throw: the command ends quietly, as it would have.
	if (!readerGone(error)) reportFailure(error)
}
