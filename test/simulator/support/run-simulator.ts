/** Runs `runSimulator` as the `smkit simulator` command does, for the process-level test. */
import { runSimulator } from '../../../src/simulator/serve'

await runSimulator({ port: process.argv[2] ?? 0, host: '127.0.0.1' })
