/**
 * The smkit command line: cac wiring only. Each command hands its raw options to a `run*`
 * function that validates them, so nothing here knows about servers, agents or the simulator.
 */
import { cac } from 'cac'
import packageJson from '../package.json'
import { runAsk } from './agent/ask'
import { runAgentWeb } from './agentweb/serve'
import { exitCodeOf, formatCliError } from './cli-error'
import { runPlayground } from './playground/serve'
import { runSimulator } from './simulator/serve'

const cli = cac('smkit')

cli
	.command('playground', 'Start the playground: JSON endpoints and browser UI (port 8877)')
	.option('--port <port>', 'Server port', { default: 8877 })
	.option('--host <host>', 'Server host', { default: '127.0.0.1' })
	.option('--env <path>', 'Environment file with credentials', { default: '.env' })
	.option('--demo', 'Serve the built-in simulated Instagram instead of the real one')
	.option('--permission <level>', 'Agent permission: ask_every, ask_once or full_access', {
		default: 'ask_once'
	})
	.option('--saved-dir <dir>', 'Where saved results are kept', { default: 'demo/saved' })
	.option('--token <token>', 'Access token required when bound beyond loopback (or SMKIT_TOKEN)')
	.option('--cors-origin <origin>', 'Allow this browser origin to call the API')
	.action(runPlayground)

cli
	.command('agent-web', 'Start the AI chat server (port 8899)')
	.option('--port <port>', 'Server port', { default: 8899 })
	.option('--host <host>', 'Server host', { default: '127.0.0.1' })
	.option('--provider <name>', 'AI provider (default: first with a key set, else gemini)')
	.option('--model <model>', 'Model override', { default: 'auto' })
	.option('--api-key <key>', 'AI provider key (default: from the environment)')
	.option('--base-url <url>', 'OpenAI-compatible endpoint for the provider')
	.option('--env <path>', 'Environment file with credentials', { default: '.env' })
	.option('--permission <level>', 'ask_every, ask_once or full_access', { default: 'ask_once' })
	.option('--demo', 'Use the built-in simulated Instagram')
	.option('--token <token>', 'Access token required when bound beyond loopback (or SMKIT_TOKEN)')
	.option('--cors-origin <origin>', 'Allow this browser origin to call the API')
	.action(runAgentWeb)

cli
	.command('ask [...question]', 'Ask the agent: one-shot, -i interactive, or --parallel tasks')
	.option('-i, --interactive', 'Interactive chat mode')
	.option('--provider <name>', 'AI provider (default: first with a key set, else gemini)')
	.option('--model <model>', 'Model override', { default: 'auto' })
	.option('--api-key <key>', 'AI provider key (default: from the environment)')
	.option('--base-url <url>', 'OpenAI-compatible endpoint for the provider')
	.option('--env <path>', 'Environment file with credentials', { default: '.env' })
	.option('--permission <level>', 'ask_every, ask_once or full_access', { default: 'ask_once' })
	.option('--full-access', 'Skip all permission checks')
	.option('--parallel', 'Run the question and extra arguments as parallel tasks')
	.option('--max-steps <n>', 'Maximum agent steps', { default: 15 })
	.option('--timeout <seconds>', 'Code execution time-out in seconds', { default: 30 })
	.option('--quiet', 'Print only the answer')
	.option('--json', 'Print the ask response as JSON')
	.option('--demo', 'Use the built-in simulated Instagram')
	.action(runAsk)

cli
	.command('simulator', 'Serve the simulated Instagram on its own (development aid)')
	.option('--port <port>', 'Server port (0 picks a free one)', { default: 0 })
	.option('--host <host>', 'Server host', { default: '127.0.0.1' })
	.action(runSimulator)

cli.help()
cli.version(packageJson.version)

try {
	cli.parse(process.argv, { run: false })
	if (cli.options.help || cli.options.version) {
		// cac has printed what was asked for.
	} else if (!cli.matchedCommand) {
		const [unknown] = cli.args
		if (unknown !== undefined) console.error(`smkit: unknown command '${unknown}'\n`)
		cli.outputHelp()
		process.exitCode = 2
	} else {
		await cli.runMatchedCommand()
	}
} catch (error) {
	console.error(formatCliError(error))
	process.exitCode =
		error instanceof Error && error.message.startsWith('Unknown option') ? 2 : exitCodeOf(error)
}
