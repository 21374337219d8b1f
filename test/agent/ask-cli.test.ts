import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'
import { startTestProxy } from '../support/proxy'

const root = path.resolve(import.meta.dir, '../..')
const bun = path.join(root, 'node_modules/.bin/bun')
const main = path.join(root, 'src/main.ts')
const aiVariables = [
	'GEMINI_API_KEY',
	'OPENAI_API_KEY',
	'ANTHROPIC_API_KEY',
	'DEEPSEEK_API_KEY',
	'GROQ_API_KEY',
	'OPENROUTER_API_KEY',
	'MISTRAL_API_KEY',
	'XAI_API_KEY',
	'OPENAI_BASE_URL',
	'OLLAMA_HOST',
	'SMKIT_UPSTREAM_URL'
]

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-cli-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

/** Runs `smkit ask ...` with the fake model and, unless told otherwise, the demo Instagram. */
async function smkit(args: string[], options: { stdin?: string; provider?: boolean } = {}) {
	const env: Record<string, string> = {}
	for (const [key, value] of Object.entries(process.env))
		if (value !== undefined && !aiVariables.includes(key)) env[key] = value
	env.NO_COLOR = '1'
	const providerArgs =
		options.provider === false
			? []
			: ['--provider', 'openai', '--api-key', 'sk-cli-test', '--base-url', llm.url]
	// Options first: everything after a `--` in `args` is a positional task.
	const child = Bun.spawn(
		[bun, main, 'ask', ...providerArgs, '--env', path.join(workDir, 'missing.env'), ...args],
		{
			cwd: workDir,
			env,
			stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
			stdout: 'pipe',
			stderr: 'pipe'
		}
	)
	const [stdout, stderr, code] = await Promise.all([
		new Response(child.stdout).text(),
		new Response(child.stderr).text(),
		child.exited
	])
	return { stdout, stderr, code }
}

const readLuna = `const user = await ig.users.getByUsername('luna.explorer'); console.log('followers=' + user.follower_count)`

function answerFromOutput(request: { body: { messages: { role: string; content: string }[] } }) {
	const output = request.body.messages.findLast((message) => message.role === 'tool')?.content ?? ''
	return reply.text(`Luna has ${/followers=(\d+)/.exec(output)?.[1] ?? '?'} followers.`)
}

describe('smkit ask', () => {
	test('--quiet prints only the answer, read from the demo Instagram', async () => {
		llm.setScript((request, index) => (index === 0 ? reply.code(readLuna) : answerFromOutput(request)))
		const result = await smkit([
			'How many followers does luna.explorer have?',
			'--demo',
			'--full-access',
			'--quiet'
		])
		expect(result.code).toBe(0)
		expect(result.stdout).toMatch(/^Luna has \d{3,} followers\.\n$/)
	})

	test('names the proxy its Instagram requests go through (credentials hidden), except with --quiet', async () => {
		const proxy = startTestProxy({ credentials: { user: 'proxyuser', password: 'proxy-secret-3' } })
		try {
			llm.setScript((request, index) => (index === 0 ? reply.code(readLuna) : answerFromOutput(request)))
			const question = ['How many followers does luna.explorer have?', '--demo', '--full-access']
			const result = await smkit([...question, '--proxy', proxy.url])
			expect(result.code).toBe(0)
			expect(result.stderr).toMatch(/^Proxy: http:\/\/\[redacted\]@127\.0\.0\.1:\d+$/m)
			expect(`${result.stdout}${result.stderr}`).not.toContain('proxy-secret-3')
			expect(proxy.count).toBeGreaterThan(0)
			const quiet = await smkit([...question, '--proxy', proxy.url, '--quiet'])
			expect(quiet.stderr).not.toContain('Proxy:')
		} finally {
			await proxy.stop()
		}
	})

	test('--model auto with --base-url asks the server for its models, takes the first and says which', async () => {
		llm.setScript([reply.text('Hello.')])
		const before = llm.requests.length
		const result = await smkit(['hi', '--demo'])
		expect(result.code).toBe(0)
		const sent = llm.requests.slice(before)
		expect(sent.map((request) => request.path)).toEqual(['/v1/models', '/v1/chat/completions'])
		expect(sent[1].body.model).toBe('fake-model')
		expect(result.stderr).toContain('Using fake-model, the first chat model the server lists')
		// The key goes to another server than OpenAI's: said, by its host only, before anything runs.
		expect(result.stderr).toStartWith(
			`AI: OpenAI (auto: the server's first chat model) at ${new URL(llm.url).host}\n`
		)
		expect(result.stderr).not.toContain('sk-cli-test')
	})

	test('--json prints the ask response', async () => {
		llm.setScript([reply.text('Hello.', 42)])
		const result = await smkit(['hi', '--demo', '--json'])
		expect(result.code).toBe(0)
		const response = JSON.parse(result.stdout)
		expect(Object.keys(response).sort()).toEqual(
			['answer', 'code', 'duration', 'error', 'files', 'steps', 'success', 'tokens'].sort()
		)
		expect(response).toMatchObject({ success: true, answer: 'Hello.', tokens: 42, steps: 1, error: null })
	})

	test('without a terminal, actions are denied with a message naming --full-access, and the ask exits 1', async () => {
		llm.setScript((request, index) =>
			index === 0
				? reply.code(readLuna)
				: reply.text(
						`Model saw: ${request.body.messages.findLast((message: { role: string }) => message.role === 'tool').content}`
					)
		)
		const result = await smkit(['followers of luna?', '--demo'])
		expect(result.stderr).toContain('--full-access')
		expect(result.stdout).toContain('Permission denied')
		expect(result.stdout).not.toContain('followers=')
		// The model answered, but without what it was refused: a script must not take it for complete.
		expect(result.stderr).toContain('smkit: exit 1: denied for want of a terminal to ask: run code')
		expect(result.code).toBe(1)
	})

	test('-i with piped input exits 1 when an action was denied, naming the kind', async () => {
		llm.setScript((_request, index) => (index === 0 ? reply.code(readLuna) : reply.text('Could not run it.')))
		const result = await smkit(['-i', '--demo'], { stdin: 'followers of luna?\nexit\n' })
		expect(result.stdout).toContain('Could not run it.')
		expect(result.stderr).toContain('denied for want of a terminal to ask: run code')
		expect(result.code).toBe(1)
	})

	test('-i with piped input answers two questions and leaves on exit, which never reaches the model', async () => {
		llm.setScript((request) => {
			const question = request.body.messages.findLast(
				(message: { role: string }) => message.role === 'user'
			).content
			return reply.text(`answer to ${question}`)
		})
		const before = llm.chatRequests().length
		const result = await smkit(['-i', '--demo', '--quiet'], {
			stdin: 'first question\n\nsecond question\nexit\nthird question\n'
		})
		expect(result.code).toBe(0)
		expect(result.stdout).toContain('answer to first question')
		expect(result.stdout).toContain('answer to second question')
		expect(result.stdout).not.toContain('third question')
		const sent = llm.chatRequests().slice(before)
		expect(sent).toHaveLength(2)
		expect(JSON.stringify(sent.map((request) => request.body))).not.toContain('"exit"')
	})

	test('the -i header says when it runs on demo data, and only then', async () => {
		const demo = await smkit(['-i', '--demo'], { stdin: 'exit\n' })
		expect(demo.code).toBe(0)
		const [header] = demo.stderr.split('\n').filter((line) => line.includes('smkit agent'))
		expect(header).toContain('│ demo data (simulated Instagram)')
		const real = await smkit(['-i'], { stdin: 'exit\n' })
		expect(real.code).toBe(0)
		expect(real.stderr).toContain('smkit agent')
		expect(real.stderr).not.toContain('demo data')
	})

	test('--parallel runs three tasks and exits 0 when all succeed', async () => {
		llm.setScript((request) => {
			const question = request.body.messages.findLast(
				(message: { role: string }) => message.role === 'user'
			).content
			return reply.text(`done: ${question}`, 10)
		})
		const result = await smkit(['--parallel', 'task one', '--json', '--demo', '--', 'task two', 'task three'])
		expect(result.code).toBe(0)
		const parsed = JSON.parse(result.stdout)
		expect(parsed.success).toBe(true)
		expect(parsed.results.map((task: { task: string }) => task.task)).toEqual([
			'task one',
			'task two',
			'task three'
		])
		expect(parsed.results.map((task: { answer: string }) => task.answer)).toEqual([
			'done: task one',
			'done: task two',
			'done: task three'
		])
		expect(parsed.total_tokens).toBe(30)
	})

	test('--parallel cuts a long answer in its summary between whole characters', async () => {
		// 99 letters then emoji: a cut at 100 code units kept half of the first one's surrogate pair.
		llm.setScript(() => reply.text(`${'a'.repeat(99)}🌅🌅🌅 and the rest of a long answer`, 10))
		const result = await smkit(['--parallel', 'task one', 'task two', '--demo'])
		expect(result.code).toBe(0)
		expect(result.stdout).not.toContain('\uFFFD')
		expect(result.stdout).toContain(`Task 1: ${'a'.repeat(99)}…`)
	})

	test('--parallel prints answers that carry escape sequences as text', async () => {
		const hostile = '\u001b]0;PWNED\u0007\u001b[2J'
		// Answered by question: the two tasks ask at the same time, in no fixed order.
		llm.setScript((request) => {
			const question = request.body.messages.findLast(
				(message: { role: string }) => message.role === 'user'
			).content
			return reply.text(`${question === 'task one' ? 'done' : 'also'} ${hostile}`, 10)
		})
		const result = await smkit(['--parallel', 'task one', 'task two', '--demo'])
		expect(result.code).toBe(0)
		expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
		expect(result.stdout).toContain('Task 1: done \\x1b]0;PWNED\\x07\\x1b[2J')
		expect(result.stdout).toContain('Task 2: also \\x1b]0;PWNED\\x07\\x1b[2J')
	})

	test('a failed ask (provider error) exits 1 and names the provider', async () => {
		llm.setScript([reply.error(500, 'down')])
		const result = await smkit(['hi', '--demo'])
		expect(result.code).toBe(1)
		expect(result.stderr).toContain('OpenAI')
		expect(result.stderr).not.toContain('sk-cli-test')
	})

	test('a model that never answers fails at --model-timeout, exit 1, naming the endpoint host only', async () => {
		llm.setScript([{ hang: true }, { hang: true }])
		const result = await smkit(['hi', '--demo', '--model-timeout', '1'])
		expect(result.code).toBe(1)
		expect(result.stderr).toContain(
			`smkit: OpenAI: no answer from the model endpoint ${new URL(llm.url).host} within 1 s`
		)
		const bad = await smkit(['hi', '--demo', '--model-timeout', '0'])
		expect(bad.code).toBe(2)
		expect(bad.stderr).toContain('--model-timeout must be a number of seconds from 1 to 3600')
		const help = await smkit(['--help'])
		expect(help.stdout).toMatch(
			/--model-timeout <seconds>\s+Seconds one model call may take, retries included \(default: 120\)/
		)
	})

	test('bad usage exits 2', async () => {
		for (const args of [
			['hi', '--permission', 'everything'],
			['hi', '--max-steps', 'many'],
			['hi', '--timeout', '0'],
			['hi', '--permission', 'ask_every', '--full-access']
		]) {
			const result = await smkit(args)
			expect(result.code).toBe(2)
			expect(result.stderr).toContain(`--${args[1].slice(2)}`)
		}
	})

	test('an empty or blank question, a blank task and a question with -i are bad usage, not a conversation', async () => {
		for (const [args, named] of [
			[[''], 'question is empty'],
			[['   '], 'question is empty'],
			[['--', '\t'], 'question is empty'],
			[['--parallel', 'followers of luna.explorer', ' '], 'task 2 is empty'],
			[['-i', 'hello'], '-i starts a conversation']
		] as const) {
			// Piped input would feed a conversation: with the fix, nothing reads it.
			const result = await smkit(['--demo', ...args], { stdin: 'exit\n' })
			expect(result.code).toBe(2)
			expect(result.stderr).toContain(named)
			expect(result.stdout).toBe('')
		}
	})

	test('a missing provider key exits 1 naming the variable', async () => {
		const result = await smkit(['hi', '--provider', 'gemini'], { provider: false })
		expect(result.code).toBe(1)
		expect(result.stderr).toContain('GEMINI_API_KEY')
	})
})
