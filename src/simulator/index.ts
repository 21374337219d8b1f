/** The simulated Instagram's public surface: start it, its demo session, its named presets and faults. */
export { DEMO_CREDENTIALS, type DemoCredentials } from './credentials'
export type { ActiveFault, FaultController, FaultKind, FaultRule } from './faults'
export { DATA_AS_OF, DEFAULT_SEED, DEMO_PRESETS, XSS_PAYLOADS } from './presets'
export type { RequestLog, RequestRecord } from './request-log'
export { GRAPHQL_IDS } from './routes/graphql'
export { type Simulator, type SimulatorOptions, startSimulator } from './server'
export type { SimulatorState } from './state'
