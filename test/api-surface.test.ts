/**
 * One source for the API surface (docs/architecture.md, "Client API surface"): the client's
 * `API_GROUPS` is the list of groups, and the method registry (with its TypeBox result schemas),
 * the agent's prompt, the MCP tools, the playground's routes and OpenAPI tags, and the UI's group
 * list and panels all follow it. A group added, removed or reordered in one place only fails here.
 */
import { describe, expect, it } from 'bun:test'
import { Kind } from '@sinclair/typebox'
import { API_GROUPS as UI_GROUPS } from '../assets/playground/lib/api'
import { DATA_PANELS } from '../assets/playground/panels/catalog'
import { formatApiReference, formatModels } from '../src/agent/prompt'
import { API_GROUPS } from '../src/client/client'
import { methodRegistry } from '../src/client/registry'
import * as models from '../src/client/types'
import { methodTools } from '../src/mcp/method-tools'
import { usePlayground } from './playground/support'

const playground = usePlayground()

const inOrder = (groups: readonly string[]) =>
	groups.filter((group, index) => groups.indexOf(group) === index)
const tagOf = (group: string) => group[0].toUpperCase() + group.slice(1)

describe('API surface', () => {
	it('the registry covers the groups in order, and each result names a schema of the client', () => {
		expect(inOrder(methodRegistry.map((spec) => spec.group))).toEqual([...API_GROUPS])
		for (const spec of methodRegistry) {
			expect(Kind in spec.result.schema).toBe(true)
			expect((models as Record<string, unknown>)[spec.result.model]).toBe(spec.result.schema)
			expect(spec.returns).toStartWith(
				spec.result.shape === 'page' ? `Page<${spec.result.model}>` : spec.result.model
			)
		}
	})

	it('the prompt lists the groups in order and the fields of every object model returned', () => {
		const reference = formatApiReference(methodRegistry)
		const headings = reference.split('\n').filter((line) => line.startsWith('ig.'))
		expect(headings).toEqual(API_GROUPS.map((group) => `ig.${group}`))
		const listed = formatModels(methodRegistry)
		for (const spec of methodRegistry) {
			if (spec.result.schema.type === 'object' && spec.result.schema.properties)
				expect(listed).toContain(`${spec.result.model}: `)
		}
	})

	it('the MCP tools are the registry methods, in group order, typed by their result schemas', () => {
		const tools = methodTools({ includeWrites: true })
		expect(tools.map((tool) => tool.method.path)).toEqual(methodRegistry.map((spec) => spec.path))
		expect(inOrder(tools.map((tool) => tool.method.group))).toEqual([...API_GROUPS])
		for (const tool of tools) {
			const { result } = tool.method
			if (result.shape === 'one' && result.schema.type === 'object')
				expect(tool.outputSchema).toBe(result.schema)
		}
	})

	it('the UI has the same groups and one panel per group', () => {
		expect(UI_GROUPS).toEqual([...API_GROUPS])
		expect(DATA_PANELS.map((panel) => panel.id).sort()).toEqual([...API_GROUPS].sort())
	})

	it('the playground serves every group under /api/<group> with its OpenAPI tag', async () => {
		const document = await (await playground.get('/openapi/json')).json()
		const tags = (document.tags as { name: string }[]).map((tag) => tag.name)
		for (const group of API_GROUPS) {
			expect(Object.keys(document.paths).some((path) => path.startsWith(`/api/${group}`))).toBe(true)
			expect(tags).toContain(tagOf(group))
		}
	})
})
