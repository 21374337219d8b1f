import { NotBuiltError } from '../cli-error'

/** Placeholder until this command is built: says so and exits 1. */
export async function runAgentWeb(..._args: unknown[]): Promise<void> {
	throw new NotBuiltError('agent-web')
}
